import moment from 'moment-timezone';
import type { Db } from '../../db';
import { type ArticleRow, toArticleDTO } from './serialize';
import type { ListingRow } from '../listings/serialize';
import { listingsQuery } from '../listings/queries';
import { z } from 'zod';
import type { Knex } from 'knex';
import { PAGE_SIZE, MAX_PAGE_SIZE } from '../../../shared/constants';
import type { ArticleDTO } from '../../../shared/dto';
import { validate } from '../../http/validate';
import { pageParamsFromQuery, type PageParams } from '../../http/pagination';
import { cachedCount, minuteFloor } from '../../db/count-cache';
import { KEEP_ANSWERS_FROM, sharedAnswer } from '../../db/answer-cache';
import { surrogateKeys } from '../../http/surrogate-keys';

// The queries behind the article pages: hubs, details, slideshows, related articles, Best of
// and the monthly archives. Every list is one indexed query plus, where a page needs it, one
// count; nothing runs per row.

export const ARTICLE_COLUMNS = [
  'a.id', 'a.name', 'a.slug', 'a.path', 'a.excerpt', 'a.image_key', 'a.is_slideshow', 'a.is_featured', 'a.author_name',
  'a.date_published', 't.id as type_id', 't.name as type_name', 't.slug as type_slug',
] as const;

/** Every article in any status or date, with its type t joined: for staff reads only. */
export function allArticlesQuery(db: Db) {
  return db('articles as a').join('article_types as t', 't.id', 'a.type_id').select([...ARTICLE_COLUMNS]);
}

/** The articles a reader may see at `now` (whereArticleIsPublic) with their type t joined. */
export function articlesQuery(db: Db, now: Date) {
  return whereArticleIsPublic(allArticlesQuery(db), now);
}

export interface ArticleDetailRow extends ArticleRow {
  body: string;
  /** The body rendered from its document (story-render.ts), with live-card markers; null before the newsroom's migration filled it. */
  body_html: string | null;
  image_credit: string;
  image_alt: string;
  seo_title: string;
  seo_description: string;
  canonical_url: string;
  social_image_key: string | null;
  is_sponsored: boolean;
  sponsor_name: string;
  date_updated: Date | string;
}

/** The columns of an article page beyond the card's. */
export const ARTICLE_DETAIL_COLUMNS = [
  'a.body', 'a.body_html', 'a.image_credit', 'a.image_alt', 'a.seo_title', 'a.seo_description', 'a.canonical_url',
  'a.social_image_key', 'a.is_sponsored', 'a.sponsor_name', 'a.date_updated',
] as const;

export interface SlideRow {
  id: number;
  position: number;
  title: string;
  caption: string;
  image_key: string | null;
  listing_id: number | null;
  listing_name: string | null;
  listing_slug: string | null;
  listing_type_slug: string | null;
  /** The place's closing day (issue 39): its slide says "Closed" from that day. */
  listing_closed_on: string | Date | null;
}

export interface BestOfListRow {
  id: number;
  title: string;
  slug: string;
  intro: string;
  image_key: string | null;
  popularity: number;
  date_published: Date | string;
  article_id: number | null;
}

export interface BestOfItemRow extends ListingRow {
  position: number;
  blurb: string;
  /** When an editor last went (a calendar day, 'YYYY-MM-DD'), if the list says. */
  last_visited_on: string | null;
  /** The place's latest DineSafe inspection, where the City's results for it are on file. */
  inspection_status: string | null;
  inspected_on: string | null;
}

export type BestOfChangeKind = 'added' | 'removed' | 'moved_up' | 'moved_down' | 'criteria' | 'visited';

/** One entry of a list's change log: what changed, where it moved, and the editor's reason. */
export interface BestOfChangeRow {
  id: number;
  list_id: number;
  listing_id: number | null;
  listing_name: string;
  kind: BestOfChangeKind;
  from_position: number | null;
  to_position: number | null;
  reason: string;
  created_at: Date;
}

const newestFirst = [
  { column: 'a.date_published', order: 'desc' },
  { column: 'a.id', order: 'desc' },
] as const;

async function countOf(query: ReturnType<Db['queryBuilder']>): Promise<number> {
  const row = (await query.clearSelect().clearOrder().count<{ n: number | string }[]>({ n: '*' }).first()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}

export async function articleTypeBySlug(db: Db, slug: string): Promise<{ id: number; name: string; slug: string } | undefined> {
  return db('article_types').where({ slug }).first('id', 'name', 'slug');
}

export async function latestArticles(db: Db, now: Date, limit: number, opts: { excludeTypeSlugs?: string[] } = {}): Promise<ArticleRow[]> {
  const q = articlesQuery(db, now).orderBy(newestFirst as never).limit(limit);
  if (opts.excludeTypeSlugs?.length) q.whereNotIn('t.slug', opts.excludeTypeSlugs);
  return q;
}

/** The navbar's links to the newest stories (navbar-menus.ts): one type's, or every type's but cannabis. */
export function articleLinksQuery(db: Db, now: Date, limit: number, typeSlug?: string) {
  const q = whereArticleIsPublic(db('articles as a').join('article_types as t', 't.id', 'a.type_id'), now)
    .orderBy([{ column: 'a.date_published', order: 'desc' }, { column: 'a.id', order: 'desc' }])
    .limit(limit)
    .select('a.name', 'a.path', 'a.date_published');
  if (typeSlug) q.where('t.slug', typeSlug);
  // The cannabis section sits behind the age gate: its titles stay out of every page's menu.
  else q.whereNot('t.slug', 'cannabis');
  return q;
}

export async function featuredArticles(db: Db, now: Date, limit: number, typeId?: number, excludeTypeSlugs: string[] = []): Promise<ArticleRow[]> {
  const q = articlesQuery(db, now).where('a.is_featured', true).orderBy(newestFirst as never).limit(limit);
  if (typeId !== undefined) q.where('a.type_id', typeId);
  if (excludeTypeSlugs.length) q.whereNotIn('t.slug', excludeTypeSlugs);
  return q;
}

/**
 * One page of a type's articles, newest first, with the type's total. The type is named by its
 * slug and found inside each query (an InitPlan on article_types' unique slug), so a hub page
 * costs these two queries and no look-up before them.
 */
export async function articlesOfType(db: Db, now: Date, typeSlug: string, page: { limit: number; offset: number }): Promise<{ count: number; rows: ArticleRow[] }> {
  const ofType = db.raw('(select id from article_types where slug = ?)', [typeSlug]);
  const [count, rows] = await Promise.all([
    countOf(whereArticleIsPublic(db('articles as a').where('a.type_id', ofType), now) as never),
    articlesQuery(db, now).where('a.type_id', ofType).orderBy(newestFirst as never).limit(page.limit).offset(page.offset),
  ]);
  return { count, rows };
}

export async function articleByPath(db: Db, now: Date, path: string): Promise<ArticleDetailRow | undefined> {
  return articlesQuery(db, now).where('a.path', path).first([...ARTICLE_DETAIL_COLUMNS]);
}

/**
 * Where a path a story once had (its slug or type changed after publishing, or an imported
 * site's address) lives now, if that story is public; undefined otherwise.
 */
export async function currentPathOfOldPath(db: Db, now: Date, path: string): Promise<string | undefined> {
  const row = await whereArticleIsPublic(db('article_path_history as h').join('articles as a', 'a.id', 'h.article_id'), now)
    .where('h.path', path)
    .whereNot('a.path', path)
    .first('a.path');
  return row?.path;
}

export async function slidesOf(db: Db, articleId: number): Promise<SlideRow[]> {
  return db('article_slides as s')
    .leftJoin('listings as l', 'l.id', 's.listing_id')
    .leftJoin('listing_types as lt', 'lt.id', 'l.type_id')
    .where('s.article_id', articleId)
    .orderBy('s.position')
    .select('s.id', 's.position', 's.title', 's.caption', 's.image_key', 's.listing_id', 'l.name as listing_name', 'l.slug as listing_slug', 'lt.slug as listing_type_slug', 'l.closed_on as listing_closed_on');
}

/**
 * Related reading: the same type's articles published just before this one (the readers of
 * an article want the next story back), topped up with the newest ones when it is the oldest.
 * One statement: both halves are index scans of (type_id, date_published), at most `limit`
 * rows each, and the older half comes first.
 */
export async function relatedArticles(db: Db, now: Date, article: Pick<ArticleRow, 'id' | 'type_id' | 'date_published'>, limit = 4): Promise<ArticleRow[]> {
  const sameType = (part: 1 | 2) =>
    articlesQuery(db, now)
      .select(db.raw(`${part} as related_part`))
      .where('a.type_id', article.type_id)
      .whereNot('a.id', article.id)
      .orderBy(newestFirst as never)
      .limit(limit);
  const older = sameType(1).where('a.date_published', '<', article.date_published);
  const newer = sameType(2).where('a.date_published', '>=', article.date_published);
  const rows: Array<ArticleRow & { related_part?: number }> = await db
    .from(db.raw('(? union all ?) as r', [older, newer]))
    .select('*')
    .orderBy([{ column: 'related_part' }, { column: 'date_published', order: 'desc' }, { column: 'id', order: 'desc' }])
    .limit(limit);
  return rows.map(({ related_part: _part, ...row }) => row);
}

/** The bounds of a calendar month in the city's time zone, as instants. */
export function monthBounds(year: number, month: number, timeZone: string): { start: Date; end: Date } {
  const start = moment.tz({ year, month: month - 1, day: 1 }, timeZone);
  return { start: start.toDate(), end: start.clone().add(1, 'month').toDate() };
}

export async function articlesInMonth(
  db: Db,
  now: Date,
  bounds: { start: Date; end: Date },
  page: { limit: number; offset: number },
): Promise<{ count: number; rows: ArticleRow[] }> {
  const [count, rows] = await Promise.all([
    countOf(whereArticleIsPublic(db('articles as a'), now).where('a.date_published', '>=', bounds.start).where('a.date_published', '<', bounds.end) as never),
    articlesQuery(db, now)
      .where('a.date_published', '>=', bounds.start)
      .where('a.date_published', '<', bounds.end)
      .orderBy(newestFirst as never)
      .limit(page.limit)
      .offset(page.offset),
  ]);
  return { count, rows };
}

// ## Best of

export const BEST_OF_ORDERINGS = {
  name: [{ column: 'b.title', order: 'asc' }, { column: 'b.id', order: 'asc' }],
  '-popularity': [{ column: 'b.popularity', order: 'desc' }, { column: 'b.id', order: 'asc' }],
  date: [{ column: 'b.date_published', order: 'desc' }, { column: 'b.id', order: 'asc' }],
} as const;
export type BestOfOrdering = keyof typeof BEST_OF_ORDERINGS;

const BEST_OF_COLUMNS = ['b.id', 'b.title', 'b.slug', 'b.intro', 'b.image_key', 'b.popularity', 'b.date_published', 'b.article_id'];

export async function bestOfLists(
  db: Db,
  ordering: BestOfOrdering,
  page: { limit: number; offset: number },
): Promise<{ count: number; rows: BestOfListRow[] }> {
  const [count, rows] = await Promise.all([
    countOf(db('best_of_lists as b') as never),
    db('best_of_lists as b')
      .select(BEST_OF_COLUMNS)
      .orderBy(BEST_OF_ORDERINGS[ordering] as never)
      .limit(page.limit)
      .offset(page.offset),
  ]);
  return { count, rows };
}

export async function bestOfListBySlug(db: Db, now: Date, slug: string): Promise<(BestOfListRow & { criteria: string; article_path: string | null; article_name: string | null }) | undefined> {
  return db('best_of_lists as b')
    // The list's article, while it is public: a scheduled or draft article is not linked.
    .leftJoin(whereArticleIsPublic(db('articles as a'), now).select('a.id', 'a.path', 'a.name').as('a'), 'a.id', 'b.article_id')
    .where('b.slug', slug)
    .first([...BEST_OF_COLUMNS, 'b.criteria', 'a.path as article_path', 'a.name as article_name']);
}

/** The latest DineSafe inspection of the listing `l` (one primary-key probe per pick). */
const latestInspection = (db: Db, column: 'status' | 'inspected_on', as: string) =>
  db.raw(`(select f.${column} from dinesafe_inspections f where f.establishment_id = l.dinesafe_establishment_id order by f.inspected_on desc limit 1) as ${as}`);

/** A list's places in their ranked order, each with its type, sub-type and neighbourhood, and the evidence the list's method shows. */
export async function bestOfItems(db: Db, listId: number): Promise<BestOfItemRow[]> {
  // DATE columns arrive as 'YYYY-MM-DD' strings on both databases (db/index.ts).
  return listingsQuery(db)
    .join('best_of_list_items as i', 'i.listing_id', 'l.id')
    .where('i.list_id', listId)
    .orderBy([{ column: 'i.position' }, { column: 'l.id' }])
    .select('i.position', 'i.blurb', 'i.last_visited_on', latestInspection(db, 'status', 'inspection_status'), latestInspection(db, 'inspected_on', 'inspected_on'));
}

/** A list's change log, newest first, with its total. */
export async function bestOfChanges(db: Db, listId: number, page: { limit: number; offset: number }): Promise<{ count: number; rows: BestOfChangeRow[] }> {
  const [count, rows] = await Promise.all([
    countOf(db('best_of_list_changes').where('list_id', listId) as never),
    db('best_of_list_changes')
      .where('list_id', listId)
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
      .limit(page.limit)
      .offset(page.offset)
      .select('id', 'list_id', 'listing_id', 'listing_name', 'kind', 'from_position', 'to_position', 'reason', 'created_at'),
  ]);
  return { count, rows: (rows as Array<BestOfChangeRow & { id: string | number }>).map((r) => ({ ...r, id: Number(r.id), created_at: new Date(r.created_at) })) };
}

/** The articles of a type (e.g. 'best-of') by slug, newest first; none when the type does not exist. */
export async function latestOfTypeSlug(db: Db, now: Date, typeSlug: string, limit: number, featuredOnly = false): Promise<ArticleRow[]> {
  const q = articlesQuery(db, now).where('t.slug', typeSlug).orderBy(newestFirst as never).limit(limit);
  if (featuredOnly) q.where('a.is_featured', true);
  return q;
}

// The article list of spec 2 §7: newest first (or by headline), optionally one type, in one
// query with the type joined. Articles dated in the future are scheduled, not yet published
// (whereArticleIsPublic).

/**
 * What a reader may see of articles, written once: every reader (pages, APIs, feeds, the
 * sitemap, search, newsletters, Best of, the navbar, bookmarks) filters through this scope.
 * Each content type has one, named `where<Type>IsPublic(qb, now, alias)`: it adds its
 * conditions to `qb` for the table aliased `alias` and answers `qb`.
 *
 * An article is public when it is published (not a draft) and dated no later than `now`:
 * one dated in the future is scheduled, off every list, feed and page until its time.
 */
export function whereArticleIsPublic<Q extends Knex.QueryBuilder>(qb: Q, now: Date, alias = 'a'): Q {
  qb.where(`${alias}.status`, 'published').where(`${alias}.date_published`, '<=', now);
  return qb;
}

export const ARTICLE_ORDERINGS = ['-date_published', 'date_published', 'name'] as const;
export const ARTICLE_BUNDLES = ['simple', 'medium', 'large'] as const;

export interface ArticleListParams extends PageParams {
  type?: string;
  ordering: (typeof ARTICLE_ORDERINGS)[number];
  bundle_type: (typeof ARTICLE_BUNDLES)[number];
  is_featured?: boolean;
}

const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);
const schema = z.object({
  type: z.preprocess(blankToUndefined, z.string().trim().regex(/^[a-z0-9][a-z0-9-]{0,99}$/i, 'Enter a valid slug.').optional()),
  ordering: z.preprocess(blankToUndefined, z.enum(ARTICLE_ORDERINGS, { message: `Select a valid choice: ${ARTICLE_ORDERINGS.join(', ')}.` }).default('-date_published')),
  bundle_type: z.preprocess(blankToUndefined, z.enum(ARTICLE_BUNDLES, { message: `Select a valid choice: ${ARTICLE_BUNDLES.join(', ')}.` }).default('medium')),
  is_featured: z.preprocess(blankToUndefined, z.enum(['0', '1', 'true', 'false'], { message: 'Must be a valid boolean.' }).optional()),
});

export function parseArticleListParams(query: unknown, defaultLimit: number = PAGE_SIZE.default): ArticleListParams {
  const q = (query ?? {}) as Record<string, unknown>;
  const page = pageParamsFromQuery(q, defaultLimit, MAX_PAGE_SIZE);
  const v = validate(schema, q);
  return {
    ...page,
    type: v.type?.toLowerCase(),
    ordering: v.ordering,
    bundle_type: v.bundle_type,
    is_featured: v.is_featured === undefined ? undefined : v.is_featured === '1' || v.is_featured === 'true',
  };
}

export type ArticleResult = Partial<ArticleDTO> & Pick<ArticleDTO, 'id' | 'name' | 'share_url'> & { author_name?: string; is_featured?: boolean };

function toBundle(row: ArticleRow, bundle: ArticleListParams['bundle_type'], siteUrl: string): ArticleResult {
  const dto = toArticleDTO(row, siteUrl);
  if (bundle === 'simple') {
    return { id: dto.id, name: dto.name, path: dto.path, share_url: dto.share_url, image_url: dto.image_url, date_published: dto.date_published, type: dto.type };
  }
  if (bundle === 'large') return { ...dto, author_name: row.author_name, is_featured: Boolean(row.is_featured) };
  return dto;
}

/**
 * Published articles as a page of DTOs and the count of all that match. The same for
 * everybody: a large answer is kept a few seconds, per minute (db/answer-cache.ts).
 */
export async function listArticles(db: Db, p: ArticleListParams, opts: { siteUrl: string; now?: Date }): Promise<{ count: number; results: ArticleResult[] }> {
  const now = minuteFloor(opts.now ?? new Date());
  return sharedAnswer(db, JSON.stringify(['articles', p, opts.siteUrl]), () => articlesAt(db, p, opts.siteUrl, now), { keep: (r) => r.count >= KEEP_ANSWERS_FROM, minute: now, tags: articleListTags(p) });
}

/**
 * What a list of stories shows, for the shared answers and counts: only a story's change (it
 * names the feeds, the latest news and its section) or a Best of list's drops it, not a
 * place's or an event's (http/surrogate-keys.ts).
 */
function articleListTags(p: ArticleListParams): string[] {
  const tags: string[] = [surrogateKeys.feeds, surrogateKeys.section('news'), surrogateKeys.section('best-of')];
  if (p.type) tags.push(surrogateKeys.section(p.type));
  return tags;
}

async function articlesAt(db: Db, p: ArticleListParams, siteUrl: string, now: Date): Promise<{ count: number; results: ArticleResult[] }> {
  const filter = (qb: ReturnType<Db>) => {
    if (p.type) qb.where('a.type_id', db('article_types').select('id').where('slug', p.type));
    if (p.is_featured !== undefined) qb.where('a.is_featured', p.is_featured);
    return qb;
  };
  const qb = filter(articlesQuery(db, now));
  // Each order ends with the id so pages never overlap; both match an index on articles.
  if (p.ordering === 'name') qb.orderBy('a.name').orderBy('a.id');
  else if (p.ordering === 'date_published') qb.orderBy('a.date_published').orderBy('a.id');
  else qb.orderBy('a.date_published', 'desc').orderBy('a.id', 'desc');
  // The count and the page in parallel (two pool connections): one round trip of waiting,
  // not two. A page past the end simply comes back empty.
  const [count, rows] = await Promise.all([cachedCount(db, filter(whereArticleIsPublic(db('articles as a'), now).count({ count: '*' })), { tags: articleListTags(p) }), qb.offset(p.offset).limit(p.limit) as Promise<ArticleRow[]>]);
  return { count, results: rows.map((r) => toBundle(r, p.bundle_type, siteUrl)) };
}
