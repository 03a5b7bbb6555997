import type { Knex } from 'knex';
import type { Db } from '../../db';
import { containsPattern } from '../../db/like-pattern';
import { STORY_LIMITS, type StoryStatus } from '../../../shared/newsroom';
import type { StoryRow, StoryValues } from './serialize';
import { JOB_QUEUE_SCHEMA } from '../../jobs/queue';

// The newsroom's reads and writes: stories (the articles table, every status), their revisions,
// preview links, who has a story open, and the candidates the editor's type-aheads offer.

export const STORY_COLUMNS = [
  'a.id', 'a.status', 'a.version', 'a.field_versions', 'a.pending', 'a.name', 'a.slug', 'a.path', 'a.excerpt', 'a.type_id',
  'a.doc', 'a.body_html', 'a.body', 'a.image_key', 'a.image_alt', 'a.image_credit', 'a.seo_title', 'a.seo_description',
  'a.canonical_url', 'a.social_image_key', 'a.is_sponsored', 'a.sponsor_name', 'a.author_name', 'a.author_id',
  'a.date_published', 'a.scheduled_at', 'a.unpublish_at', 'a.published_late_minutes', 'a.date_updated', 'a.date_created',
  'a.last_revision_at', 'a.is_slideshow', 'a.is_featured', 't.slug as type_slug', 't.name as type_name',
  'p.full_name as author_full_name',
] as const;


function parseJson<T>(v: unknown, fallback: T): T {
  if (v === null || v === undefined) return fallback;
  return (typeof v === 'string' ? JSON.parse(v) : v) as T;
}

function normalise(row: StoryRow): StoryRow {
  return { ...row, field_versions: parseJson(row.field_versions, {}), pending: parseJson(row.pending, {}), doc: parseJson(row.doc, null) };
}

function storiesQuery(db: Db | Knex.Transaction) {
  return db('articles as a').join('article_types as t', 't.id', 'a.type_id').leftJoin('profiles as p', 'p.id', 'a.author_id').select([...STORY_COLUMNS]);
}

/** A story in any status (staff only), locked for the transaction when `forUpdate`. */
export async function storyById(db: Db | Knex.Transaction, id: number, forUpdate = false): Promise<StoryRow | undefined> {
  const q = storiesQuery(db).where('a.id', id);
  if (forUpdate) q.forUpdate('a');
  const row = await q.first();
  return row ? normalise(row) : undefined;
}


export interface StoryListFilter {
  status?: StoryStatus;
  typeId?: number;
  authorId?: number;
  q?: string;
  limit: number;
  offset: number;
}

export async function listStories(db: Db, f: StoryListFilter): Promise<{ count: number; rows: StoryRow[] }> {
  const filtered = (q: Knex.QueryBuilder) => {
    if (f.status) q.where('a.status', f.status);
    if (f.typeId) q.where('a.type_id', f.typeId);
    if (f.authorId) q.where('a.author_id', f.authorId);
    if (f.q) q.where((w) => w.whereILike('a.name', containsPattern(f.q!)).orWhereILike('a.author_name', containsPattern(f.q!)));
    return q;
  };
  const [countRow, rows] = await Promise.all([
    filtered(db('articles as a')).count<{ n: string | number }[]>({ n: '*' }).first(),
    filtered(storiesQuery(db)).orderBy([{ column: 'a.date_updated', order: 'desc' }, { column: 'a.id', order: 'desc' }]).limit(f.limit).offset(f.offset),
  ]);
  return { count: Number((countRow as { n: string | number } | undefined)?.n ?? 0), rows: rows.map(normalise) };
}

export async function articleTypes(db: Db): Promise<Array<{ id: number; name: string; slug: string }>> {
  return db('article_types').orderBy([{ column: 'position' }, { column: 'id' }]).select('id', 'name', 'slug');
}

export async function articleTypeById(db: Db | Knex.Transaction, id: number): Promise<{ id: number; slug: string; name: string } | undefined> {
  return db('article_types').where({ id }).first('id', 'slug', 'name');
}

/** The id of the first story type (by position), the one a new story gets when none is named. */
export async function firstArticleTypeId(db: Db | Knex.Transaction): Promise<number | undefined> {
  return (await db('article_types').orderBy('position').first('id'))?.id;
}

export async function insertStory(trx: Knex.Transaction, row: Record<string, unknown>): Promise<number> {
  const [r] = await trx('articles').insert(row).returning('id');
  return Number(r.id);
}

export async function updateStory(trx: Knex.Transaction, id: number, row: Record<string, unknown>): Promise<void> {
  await trx('articles').where({ id }).update(row);
}

/** Whether another article already has this path (paths are unique). */
export async function pathTaken(trx: Knex.Transaction, path: string, exceptId: number): Promise<boolean> {
  const [a, h] = await Promise.all([
    trx('articles').where({ path }).whereNot({ id: exceptId }).first('id'),
    trx('article_path_history').where({ path }).whereNot({ article_id: exceptId }).first('path'),
  ]);
  return Boolean(a || h);
}

/** Keeps a path a published story leaves, so it answers with a 301 to the new one. */
export async function rememberOldPath(trx: Knex.Transaction, path: string, articleId: number): Promise<void> {
  await trx('article_path_history').insert({ path, article_id: articleId }).onConflict('path').merge(['article_id']);
  // The new path is the story's own again if it once had it.
}

export async function forgetPath(trx: Knex.Transaction, path: string): Promise<void> {
  await trx('article_path_history').where({ path }).delete();
}

// ## Revisions

export interface RevisionRow {
  id: number;
  article_id: number;
  version: number;
  reason: string;
  status: string;
  fields: StoryValues;
  body_html: string;
  author_id: number | null;
  author_name: string;
  created_at: Date;
}

export async function insertRevision(trx: Knex.Transaction, r: Omit<RevisionRow, 'id' | 'created_at'> & { created_at: Date }): Promise<void> {
  await trx('article_revisions').insert({ ...r, fields: JSON.stringify(r.fields) });
  // Keep the newest STORY_LIMITS.revisionsKept.
  await trx.raw(
    `delete from article_revisions where article_id = ? and id < (
       select id from article_revisions where article_id = ? order by id desc offset ? limit 1)`,
    [r.article_id, r.article_id, STORY_LIMITS.revisionsKept - 1],
  );
}

export async function revisionsOf(db: Db, articleId: number): Promise<Array<Omit<RevisionRow, 'fields' | 'body_html'>>> {
  return db('article_revisions').where({ article_id: articleId }).orderBy('id', 'desc').limit(STORY_LIMITS.revisionsKept)
    .select('id', 'article_id', 'version', 'reason', 'status', 'author_id', 'author_name', 'created_at');
}

export async function revisionById(db: Db, articleId: number, id: number): Promise<RevisionRow | undefined> {
  const row = await db('article_revisions').where({ article_id: articleId, id }).first();
  return row ? { ...row, fields: parseJson(row.fields, {} as StoryValues) } : undefined;
}

export async function hasRevisions(trx: Knex.Transaction, articleId: number): Promise<boolean> {
  return Boolean(await trx('article_revisions').where({ article_id: articleId }).first('id'));
}

// ## Preview links

export interface PreviewRow {
  id: number;
  article_id: number;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  created_by_name: string | null;
}

export async function insertPreview(db: Db, row: { article_id: number; token_hash: string; created_by: number; expires_at: Date; created_at: Date }): Promise<number> {
  const [r] = await db('story_previews').insert(row).returning('id');
  return Number(r.id);
}

export async function previewsOf(db: Db, articleId: number): Promise<PreviewRow[]> {
  return db('story_previews as s').leftJoin('profiles as p', 'p.id', 's.created_by').where('s.article_id', articleId).orderBy('s.id', 'desc')
    .select('s.id', 's.article_id', 's.created_at', 's.expires_at', 's.revoked_at', 'p.full_name as created_by_name');
}

export async function revokePreview(db: Db, articleId: number, id: number, now: Date): Promise<boolean> {
  return (await db('story_previews').where({ article_id: articleId, id }).whereNull('revoked_at').update({ revoked_at: now })) > 0;
}

/** The story a live preview token opens; undefined when unknown, revoked or expired. */
export async function previewStoryId(db: Db, tokenHash: string, now: Date): Promise<number | undefined> {
  const row = await db('story_previews').where({ token_hash: tokenHash }).whereNull('revoked_at').where('expires_at', '>', now).first('article_id');
  return row ? Number(row.article_id) : undefined;
}

// ## Presence

export async function touchPresence(db: Db, articleId: number, memberId: number, now: Date, ttlMs: number): Promise<void> {
  const stale = new Date(now.getTime() - ttlMs);
  await db.raw(
    `insert into story_presence (article_id, member_id, since, seen_at) values (?, ?, ?, ?)
     on conflict (article_id, member_id) do update set
       since = case when story_presence.seen_at < ? then excluded.since else story_presence.since end,
       seen_at = excluded.seen_at`,
    [articleId, memberId, now, now, stale],
  );
}

export async function leavePresence(db: Db, articleId: number, memberId: number): Promise<void> {
  await db('story_presence').where({ article_id: articleId, member_id: memberId }).delete();
}

export async function othersPresent(db: Db, articleId: number, memberId: number, now: Date, ttlMs: number): Promise<Array<{ member_id: number; name: string; since: Date }>> {
  return db('story_presence as s').join('profiles as p', 'p.id', 's.member_id')
    .where('s.article_id', articleId).whereNot('s.member_id', memberId).where('s.seen_at', '>', new Date(now.getTime() - ttlMs))
    .orderBy('s.since').select('s.member_id', db.raw("coalesce(nullif(p.full_name, ''), p.email) as name"), 's.since');
}

// ## Type-aheads

export async function storyLinkTargets(db: Db, now: Date, q: string, limit: number): Promise<Array<{ name: string; path: string }>> {
  return db('articles').where('status', 'published').where('date_published', '<=', now).whereILike('name', containsPattern(q))
    .orderBy('date_published', 'desc').limit(limit).select('name', 'path');
}

export async function placeTargets(db: Db, q: string, limit: number) {
  return db('listings as l').join('listing_types as lt', 'lt.id', 'l.type_id').leftJoin('neighbourhoods as n', 'n.id', 'l.neighbourhood_id')
    .whereILike('l.name', containsPattern(q)).orderBy([{ column: 'l.rating_count', order: 'desc' }, { column: 'l.id' }]).limit(limit)
    .select('l.id', 'l.name', 'l.slug', 'l.closed_on', 'lt.slug as type_slug', 'lt.name as type_name', 'n.name as neighbourhood_name');
}

export async function eventTargets(db: Db, q: string, limit: number) {
  return db('events as e').where('e.status', 'approved').whereILike('e.title', containsPattern(q)).orderBy('e.id', 'desc').limit(limit)
    .select('e.id', 'e.title', 'e.venue_name');
}

export async function bestOfTargets(db: Db, q: string, limit: number) {
  return db('best_of_lists').whereILike('title', containsPattern(q)).orderBy('title').limit(limit).select('id', 'title', 'slug');
}

// ## What the checks look up

export async function placesByIds(db: Db, ids: number[]): Promise<Array<{ id: number; name: string; closed_on: string | Date | null }>> {
  if (!ids.length) return [];
  return db('listings').whereIn('id', ids).select('id', 'name', 'closed_on');
}

export async function publicEventIds(db: Db, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  return (await db('events').whereIn('id', ids).where('status', 'approved').select('id')).map((r) => Number(r.id));
}

export async function bestOfIds(db: Db, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  return (await db('best_of_lists').whereIn('id', ids).select('id')).map((r) => Number(r.id));
}

/** Of these site paths, the ones that name a public story or an old path of one. */
export async function existingStoryPaths(db: Db, now: Date, paths: string[]): Promise<Set<string>> {
  if (!paths.length) return new Set();
  const [a, h] = await Promise.all([
    db('articles').whereIn('path', paths).where('status', 'published').where('date_published', '<=', now).select('path'),
    db('article_path_history').whereIn('path', paths).select('path'),
  ]);
  return new Set([...a, ...h].map((r) => String(r.path)));
}

export async function existingListingIds(db: Db, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  return new Set((await db('listings').whereIn('id', ids).select('id')).map((r) => Number(r.id)));
}

// ## Scheduling

/** Scheduled stories whose time has come, and published ones whose unpublishing time has. */
/**
 * Stories whose minute has passed and that no job will see to: the net under the job queue
 * (the story.schedule-net job) leaves a story to its own job while that job waits, retries or
 * runs, and takes the ones whose job was lost, failed for good or never sent.
 */
export async function dueStories(db: Db, now: Date, jobs: { publish: string; unpublish: string }): Promise<{ publish: Array<{ id: number; at: Date }>; unpublish: Array<{ id: number; at: Date }> }> {
  const noLiveJob = (job: string) =>
    function (this: Knex.QueryBuilder) {
      this.select(db.raw('1'))
        .from(`${JOB_QUEUE_SCHEMA}.job`)
        .where('name', job)
        .whereIn('state', ['created', 'retry', 'active'])
        .whereRaw(`(data->>'id')::int = articles.id`);
    };
  const [p, u] = await Promise.all([
    db('articles').where('status', 'scheduled').where('scheduled_at', '<=', now).whereNotExists(noLiveJob(jobs.publish)).select('id', 'scheduled_at as at'),
    db('articles').where('status', 'published').whereNotNull('unpublish_at').where('unpublish_at', '<=', now).whereNotExists(noLiveJob(jobs.unpublish)).select('id', 'unpublish_at as at'),
  ]);
  return { publish: p, unpublish: u };
}

// ## Roles

export async function setNewsroomRole(db: Db | Knex.Transaction, memberId: number, role: string | null): Promise<void> {
  await db('profiles').where({ id: memberId }).update({ newsroom_role: role });
}

export async function newsroomStaff(db: Db): Promise<Array<{ id: number; email: string; full_name: string; newsroom_role: string }>> {
  return db('profiles').whereNotNull('newsroom_role').orderBy('email').select('id', 'email', 'full_name', 'newsroom_role');
}

/** A story's author as the scheduler's audit entry names them; undefined when the account is gone. */
export async function storyAuthor(db: Db | Knex.Transaction, authorId: number): Promise<{ id: number; email: string; full_name: string } | undefined> {
  return db('profiles').where({ id: authorId }).first('id', 'email', 'full_name');
}

export async function memberByEmail(db: Db | Knex.Transaction, email: string): Promise<{ id: number; email: string; newsroom_role: string | null } | undefined> {
  return db('profiles').whereRaw('lower(email) = ?', [email.trim().toLowerCase()]).first('id', 'email', 'newsroom_role');
}
