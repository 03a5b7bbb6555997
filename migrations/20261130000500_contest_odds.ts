import type { Knex } from 'knex';

// Contests made by staff in the browser (issue 39, /staff/contests/): each states its odds
// (Canadian contest law asks for them in the rules: "1 prize; odds depend on the number of
// eligible entries"), written per contest and printed on its rules page. Empty: the rules page
// keeps its standard line. Forward-only.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('contests', (t) => {
    t.text('odds').notNullable().defaultTo('');
  });
}
