import type { Knex } from 'knex';
import type { Db } from '../../db';
import type { RevisionRow } from './queries';

// What the WordPress import (wordpress-import.ts) reads and writes beyond the newsroom's story
// queries (queries.ts): the story types posts are sorted into, the members they are credited
// to, the story a post made on an earlier run (by wordpress_guid) and the import's revision.

export interface StoryTypeRow {
  id: number;
  slug: string;
  name: string;
}

export async function storyTypes(db: Db): Promise<StoryTypeRow[]> {
  return db('article_types').orderBy('position').orderBy('id').select('id', 'slug', 'name');
}

/** Makes a story type and answers the types there are then. */
export async function addStoryType(db: Db, type: { slug: string; name: string; position: number }): Promise<StoryTypeRow[]> {
  await db('article_types').insert(type);
  return db('article_types').select('id', 'slug', 'name');
}

/** The id of the member whose address, lower-cased, is `email` (given in lower case); null when none. */
export async function memberIdByEmail(db: Db, email: string): Promise<number | null> {
  const row = await db('profiles').whereRaw('lower(email) = ?', [email]).first('id');
  return row ? Number(row.id) : null;
}

/** The story an earlier import made of this post. */
export async function storyByWordpressGuid(trx: Knex.Transaction, guid: string): Promise<{ id: number; path: string; version: number } | undefined> {
  return trx('articles').where('wordpress_guid', guid).first('id', 'path', 'version');
}

/** Whether a story other than `exceptId` (when given) has this path. */
export async function storyPathTaken(trx: Knex.Transaction, path: string, exceptId: number | undefined): Promise<boolean> {
  return Boolean(await trx('articles').where('path', path).modify((q) => (exceptId !== undefined ? q.whereNot('id', exceptId) : q)).first('id'));
}

/** A revision as it is: unlike queries.ts's insertRevision, no older revision is dropped. */
export async function insertImportRevision(trx: Knex.Transaction, r: Omit<RevisionRow, 'id' | 'created_at' | 'fields'> & { fields: string }): Promise<void> {
  await trx('article_revisions').insert(r);
}
