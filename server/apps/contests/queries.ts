import type { Db } from '../../db';
import { type ContestRow, toContestDTO } from './serialize';
import { z } from 'zod';
import type { Knex } from 'knex';
import { PAGE_SIZE, MAX_PAGE_SIZE } from '../../../shared/constants';
import type { ContestDTO } from '../../../shared/dto';
import { validate } from '../../http/validate';
import { pageParamsFromQuery, type PageParams } from '../../http/pagination';
import { oldSlugSubject } from '../../http/pages/old-slugs';

export const CONTEST_COLUMNS = ['c.id', 'c.title', 'c.name', 'c.description', 'c.prize', 'c.image_key', 'c.start_date', 'c.end_date', 'c.date_published'] as const;

/** Every contest, published or being prepared: for staff reads only. */
export function allContestsQuery(db: Db) {
  return db('contests as c').select([...CONTEST_COLUMNS]);
}

/** The contests a reader may see at `now` (whereContestIsPublic). */
export function contestsQuery(db: Db, now: Date) {
  return whereContestIsPublic(allContestsQuery(db), now);
}

export interface ContestPageRow extends ContestRow {
  rules: string;
  /** The skill-testing question (prize contests); its answer is only ever compared, never printed. */
  skill_question: string | null;
  skill_answer: number | null;
  /** The odds as staff state them in the rules; empty: the standard line. */
  odds: string;
}

/** A published contest by its name (the slug in its URL), with its prize, rules and question. */
export async function publishedContest(db: Db, name: string, now: Date): Promise<ContestPageRow | undefined> {
  return contestsQuery(db, now).where('c.name', name).first('c.rules', 'c.odds', 'c.skill_question', 'c.skill_answer');
}

/** The current name of the public contest that once had `name` (staff changed it since), if any. */
export async function movedContestName(db: Db, name: string, now: Date): Promise<string | undefined> {
  const row: { name: string } | undefined = await whereContestIsPublic(db('contests as c'), now).whereIn('c.id', oldSlugSubject(db, 'contest', name)).first('c.name');
  return row?.name;
}

// Contests (spec 1 §7): newest first by default; is_expired is derived from end_date at the
// time of the request, and `expired=0|1` filters on the same comparison.

/**
 * What a reader may see of contests, written once (the hub, its page and entry form, the API,
 * the sitemap, search, home, newsletters filter through it). Each content type has one such
 * scope, named `where<Type>IsPublic(qb, now, alias)`.
 *
 * A contest is public from its date_published: before that it is being prepared (staff see it
 * on their pages). Whether it is open for entries (start_date, end_date) is a filter on top.
 */
export function whereContestIsPublic<Q extends Knex.QueryBuilder>(qb: Q, now: Date, alias = 'c'): Q {
  qb.where(`${alias}.date_published`, '<=', now);
  return qb;
}

export const CONTEST_ORDERINGS = ['-date_published', 'date_published', 'end_date', '-end_date'] as const;

export interface ContestListParams extends PageParams {
  ordering: (typeof CONTEST_ORDERINGS)[number];
  expired?: boolean;
}

const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);
const schema = z.object({
  ordering: z.preprocess(blankToUndefined, z.enum(CONTEST_ORDERINGS, { message: `Select a valid choice: ${CONTEST_ORDERINGS.join(', ')}.` }).default('-date_published')),
  expired: z.preprocess(blankToUndefined, z.enum(['0', '1', 'true', 'false'], { message: 'Must be a valid boolean.' }).optional()),
});

export function parseContestListParams(query: unknown, defaultLimit: number = PAGE_SIZE.contests): ContestListParams {
  const q = (query ?? {}) as Record<string, unknown>;
  const page = pageParamsFromQuery(q, defaultLimit, MAX_PAGE_SIZE);
  const v = validate(schema, q);
  return { ...page, ordering: v.ordering, expired: v.expired === undefined ? undefined : v.expired === '1' || v.expired === 'true' };
}

export async function listContests(db: Db, p: ContestListParams, opts: { siteUrl: string; now: Date }): Promise<{ count: number; results: ContestDTO[] }> {
  const filter = (qb: ReturnType<Db>) => {
    // Expired means end_date <= now, exactly as toContestDTO derives is_expired.
    if (p.expired === true) qb.where('c.end_date', '<=', opts.now);
    if (p.expired === false) qb.where('c.end_date', '>', opts.now);
    return qb;
  };
  const [{ count }] = await filter(whereContestIsPublic(db('contests as c'), opts.now).count<{ count: number }[]>({ count: '*' }));
  const total = Number(count);
  if (total === 0 || p.offset >= total) return { count: total, results: [] };
  const [column, dir] = p.ordering.startsWith('-') ? [p.ordering.slice(1), 'desc' as const] : [p.ordering, 'asc' as const];
  const rows: ContestRow[] = await filter(contestsQuery(db, opts.now)).orderBy(`c.${column}`, dir).orderBy('c.id', dir).offset(p.offset).limit(p.limit);
  return { count: total, results: rows.map((r) => toContestDTO(r, opts.siteUrl, opts.now)) };
}
