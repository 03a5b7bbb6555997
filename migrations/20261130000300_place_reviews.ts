import type { Knex } from 'knex';

// A place's review (issue 39, docs/places-desk.md): written by staff on the places desk, shown on
// the place's page once published, listed in the navbar's RECENT REVIEWS and linked by the maps'
// "View Review".
// - review: the text (plain paragraphs, blank-line separated). Its own column, not `description`:
//   a draft must not reach the page, and the seed's description stays what a place without a
//   published review shows (the desk's form starts from it).
// - review_author_id: the staff member who last saved it (kept if they leave: SET NULL);
//   review_byline: the name printed ("Review by Sam Editor"), which may differ from the account's.
// - review_published_at: when it was published; null is not published (a draft or none).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('listings', (t) => {
    t.text('review').notNullable().defaultTo('');
    t.integer('review_author_id').references('id').inTable('profiles').onDelete('SET NULL');
    t.string('review_byline', 120).notNullable().defaultTo('');
    t.timestamp('review_published_at', { useTz: true });
  });
  // RECENT REVIEWS reads the newest published reviews.
  await knex.raw('CREATE INDEX listings_review_published ON listings (review_published_at DESC, id DESC) WHERE review_published_at IS NOT NULL');
}
