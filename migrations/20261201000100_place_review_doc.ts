import type { Knex } from 'knex';

// A place's review written in the newsroom's editor (issue 39, docs/places-desk.md): its
// ProseMirror document in the story schema (shared/newsroom.ts), rendered on the place's page by
// the stories' renderer. Null for a review saved before this (plain paragraphs in `review`),
// which the page keeps showing as paragraphs. `review` stays the review's plain text (the
// document's words, blocks separated by blank lines): the page's description, the revision
// lines and the character counts read it.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('listings', (t) => {
    t.jsonb('review_doc');
  });
}
