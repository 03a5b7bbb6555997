import type { Knex } from 'knex';

// The old addresses of pages whose address is a slug alone (a video's /videos/<slug>/, a
// contest's /contests/<name>/): when staff change the slug, the old one is kept here with the
// subject's id, so the old address answers a 301 to wherever the subject is now (however many
// times it has moved since: the row names the subject, not the next slug). One table for every
// such kind, read and written through server/http/pages/old-slugs.ts; no foreign key, as the
// subject's table depends on the kind (a removed subject's rows simply lead nowhere: a 404).
// Staff slug changes made before this migration are read back from the audit log, which
// recorded each old slug. Forward-only.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('old_slugs', (t) => {
    t.string('kind', 32).notNullable();
    t.string('slug', 255).notNullable();
    t.integer('subject_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['kind', 'slug']);
  });
  await oldSlugsFromAuditLog(knex);
}

/**
 * The old slugs the staff audit log recorded (video.update's old_slug, contest.update's
 * old_name) as old_slugs rows. The newest change wins where one slug was left by two subjects
 * in turn; a slug in use now is its own subject's address, not an old one.
 */
export async function oldSlugsFromAuditLog(knex: Knex): Promise<void> {
  // The names below are this file's constants, not input.
  for (const [kind, action, key, table, column] of [['video', 'video.update', 'old_slug', 'videos', 'slug'], ['contest', 'contest.update', 'old_name', 'contests', 'name']] as const) {
    await knex.raw(`
      INSERT INTO old_slugs (kind, slug, subject_id, created_at)
      SELECT DISTINCT ON (l.detail->>'${key}') '${kind}', l.detail->>'${key}', l.subject_id, l.created_at
        FROM staff_audit_log l
       WHERE l.action = '${action}' AND l.detail->>'${key}' IS NOT NULL AND l.subject_id IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM ${table} s WHERE s.${column} = l.detail->>'${key}')
       ORDER BY l.detail->>'${key}', l.created_at DESC, l.id DESC
      ON CONFLICT (kind, slug) DO NOTHING`);
  }
}
