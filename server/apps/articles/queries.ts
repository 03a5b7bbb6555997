import { z } from 'zod';
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { PAGE_SIZE, MAX_PAGE_SIZE } from '../../../shared/constants';
import type { ArticleDTO } from '../../../shared/dto';
import { validate } from '../../http/validate';
import { pageParamsFromQuery, type PageParams } from '../../http/pagination';
import { cachedCount, minuteFloor } from '../../db/count-cache';
import { KEEP_ANSWERS_FROM, sharedAnswer } from '../../db/answer-cache';
import { articlesQuery, toArticleDTO, type ArticleRow } from './serialize';

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
  return sharedAnswer(db, JSON.stringify(['articles', p, opts.siteUrl]), () => articlesAt(db, p, opts.siteUrl, now), { keep: (r) => r.count >= KEEP_ANSWERS_FROM, minute: now });
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
  const [count, rows] = await Promise.all([cachedCount(db, filter(whereArticleIsPublic(db('articles as a'), now).count({ count: '*' }))), qb.offset(p.offset).limit(p.limit) as Promise<ArticleRow[]>]);
  return { count, results: rows.map((r) => toBundle(r, p.bundle_type, siteUrl)) };
}
