import type { Knex } from 'knex';
import type { Db } from '../../db';

// The old addresses of pages whose address is a slug alone (a video's /videos/<slug>/, a
// contest's /contests/<name>/; a place keeps its id in its path, so canonicalRedirect serves
// it, and an article has its own path history). When staff change such a slug, the save
// remembers the old one with the subject's id (in the save's transaction); a request for an
// address no subject has now asks which subject had it, and the page answers a 301 to that
// subject's current address. The row names the subject, not the next slug, so an address
// moved twice (A → B → C) still lands on C in one hop. Table: old_slugs (its migration says more).

/** The kinds of subject with slug-only addresses. */
export type OldSlugKind = 'video' | 'contest';

/**
 * In the save's transaction, once subject `id` has address `to` (moved from `from`; null for
 * a new subject): `to` is its address, no longer an old one of anybody's, and `from` now leads
 * to it (taken from any subject that left it before: the newest move wins).
 */
export async function recordSlugChange(trx: Knex.Transaction, kind: OldSlugKind, id: number, from: string | null, to: string): Promise<void> {
  await trx('old_slugs').where({ kind, slug: to }).del();
  if (from === null || from === to) return;
  await trx('old_slugs').insert({ kind, slug: from, subject_id: id }).onConflict(['kind', 'slug']).merge(['subject_id', 'created_at']);
}

/** The ids of the subject that once had `slug` (none or one), as a subquery for the app's own query. */
export function oldSlugSubject(db: Db, kind: OldSlugKind, slug: string): Knex.QueryBuilder {
  return db('old_slugs').where({ kind, slug }).select('subject_id');
}
