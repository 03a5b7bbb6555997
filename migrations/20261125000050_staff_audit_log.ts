import type { Knex } from 'knex';

// Every staff action (approve, reject, remove, draw a winner…) is written here: who did it,
// what, to which object, when, with the note they gave. Rows outlive the staff account that
// wrote them (the id is kept, the link set null), so the log stays complete.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('staff_audit_log', (t) => {
    t.bigIncrements('id');
    t.integer('staff_id').references('id').inTable('profiles').onDelete('SET NULL');
    t.string('staff_email', 254).notNullable();
    t.string('action', 64).notNullable();
    t.string('subject_type', 64).notNullable();
    t.bigInteger('subject_id');
    t.text('note');
    t.jsonb('detail');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX staff_audit_log_created ON staff_audit_log (created_at DESC, id DESC)');
  await knex.raw('CREATE INDEX staff_audit_log_subject ON staff_audit_log (subject_type, subject_id)');
}
