import type { Knex } from 'knex';

// Members enter contests (one entry each), prize contests ask a mathematical skill-testing
// question (Canadian contest law), and staff draw a winner among the valid entries.
// Entries go with their member (account deletion) and with their contest; a drawn winner
// whose entry is gone leaves drawn_at set and winner_entry_id null, so staff see a redraw is due.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('contest_entries', (t) => {
    t.increments('id');
    t.integer('contest_id').notNullable().references('id').inTable('contests').onDelete('CASCADE');
    t.integer('profile_id').notNullable().references('id').inTable('profiles').onDelete('CASCADE');
    // The answer the member gave; null when the contest asks no question.
    t.integer('skill_answer');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['contest_id', 'profile_id']);
  });
  // Deleting a member finds their entries without scanning every contest's.
  await knex.raw('CREATE INDEX contest_entries_profile ON contest_entries (profile_id)');
  await knex.schema.alterTable('contests', (t) => {
    t.text('skill_question');
    t.integer('skill_answer');
    t.integer('winner_entry_id').references('id').inTable('contest_entries').onDelete('SET NULL');
    t.timestamp('drawn_at', { useTz: true });
  });
  // A question without its answer (or the reverse) could never be checked.
  await knex.raw('ALTER TABLE contests ADD CONSTRAINT contests_skill_question_answer CHECK ((skill_question IS NULL) = (skill_answer IS NULL))');
}
