import type { Knex } from 'knex';

// Staff mark a contact message handled in the staff area (/staff/contact/): when, and by whom
// (the link is set null if that account goes; the audit log keeps the email).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('contact_messages', (t) => {
    t.timestamp('handled_at', { useTz: true });
    t.integer('handled_by').references('id').inTable('profiles').onDelete('SET NULL');
  });
}
