import type { Knex } from 'knex';

// Live co-editing (issue 42): a story's body as a shared Yjs document that any server process
// can serve. The document is its compacted state plus the updates appended since, each update
// written as it arrives, so a process that stops loses nothing another cannot load; compaction
// folds the updates into the state under the row's lock. Comments live inside the document.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('story_documents', (t) => {
    t.integer('article_id').primary().references('id').inTable('articles').onDelete('CASCADE');
    t.binary('state').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('story_document_updates', (t) => {
    t.bigIncrements('id').primary();
    t.integer('article_id').notNullable().references('article_id').inTable('story_documents').onDelete('CASCADE');
    t.binary('update').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX story_document_updates_article ON story_document_updates (article_id, id)');
}
