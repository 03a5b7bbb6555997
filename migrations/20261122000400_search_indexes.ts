import type { Knex } from 'knex';
import { addTrigramIndex } from './helpers';

// Site search's typo tolerance compares names by trigram word similarity (pg_trgm's <%
// operator). Articles and listings got their lower(name) trigram indexes with their tables;
// these are the other three kinds of thing search looks through.
export async function up(knex: Knex): Promise<void> {
  await addTrigramIndex(knex, 'events', 'title');
  await addTrigramIndex(knex, 'videos', 'title');
  await addTrigramIndex(knex, 'contests', 'title');
}
