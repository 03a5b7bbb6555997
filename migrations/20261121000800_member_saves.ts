import type { Knex } from 'knex';
import { ownedByMember } from './helpers';

// One favourite, to-do, rating or bookmark per member and object: the unique constraints make
// a double save impossible even when two requests race.

function saveTable(knex: Knex, name: string, objectColumn: string, objectTable: string, extra?: (t: Knex.CreateTableBuilder) => void) {
  return knex.schema.createTable(name, (t) => {
    t.increments('id');
    ownedByMember(t);
    t.integer(objectColumn).notNullable().references('id').inTable(objectTable).onDelete('CASCADE');
    t.timestamp('date_created', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    extra?.(t);
    t.unique(['profile_id', objectColumn]);
    t.index([objectColumn]);
  });
}

export async function up(knex: Knex): Promise<void> {
  await saveTable(knex, 'favourites', 'listing_id', 'listings');
  await knex.raw('CREATE INDEX favourites_profile_created ON favourites (profile_id, date_created DESC, id DESC)');

  await saveTable(knex, 'todos', 'listing_id', 'listings', (t) => {
    t.boolean('is_done').notNullable().defaultTo(false);
    t.timestamp('date_completed', { useTz: true });
  });
  await knex.raw('CREATE INDEX todos_profile_done_created ON todos (profile_id, is_done, date_created DESC, id DESC)');

  await saveTable(knex, 'ratings', 'listing_id', 'listings', (t) => {
    t.smallint('rating').notNullable();
    t.timestamp('date_updated', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('ALTER TABLE ratings ADD CONSTRAINT ratings_rating_range CHECK (rating BETWEEN 1 AND 5)');
  await knex.raw('CREATE INDEX ratings_profile_created ON ratings (profile_id, date_created DESC, id DESC)');

  await saveTable(knex, 'article_bookmarks', 'article_id', 'articles');
  await knex.raw('CREATE INDEX article_bookmarks_profile_created ON article_bookmarks (profile_id, date_created DESC, id DESC)');

  await saveTable(knex, 'video_bookmarks', 'video_id', 'videos');
  await knex.raw('CREATE INDEX video_bookmarks_profile_created ON video_bookmarks (profile_id, date_created DESC, id DESC)');

  await saveTable(knex, 'event_bookmarks', 'event_id', 'events', (t) => {
    t.boolean('add_to_calendar').notNullable().defaultTo(false);
    t.string('calendar_event_id', 255); // the id Google Calendar gave the copy, when synced
  });
  await knex.raw('CREATE INDEX event_bookmarks_profile_created ON event_bookmarks (profile_id, date_created DESC, id DESC)');
}
