import type { Knex } from 'knex';
import type { Db } from '../../db';
import { parseQueryText, tsQuerySql, type ParsedQuery } from './query-text';
import { HEADLINE_OPTIONS, MARK_END, MARK_START, highlightedHtml } from './snippet';
import { SEARCH_CATEGORIES, SOURCES, type SearchCategory, type SearchObject } from './sources';
import type { SearchOrdering } from './params';
import { cachedValue, minuteFloor } from '../../db/count-cache';
import type { SiteSearchResultDTO } from '../../../shared/site-search';
import { WORD_SIMILARITY, correctWords, headlinesWithWords, queryWords } from './typo';

// Site search (spec 2 §2, §7): one query over articles, listings, events, videos and contests.
//
// 1. Full text: each category's tsvector `search` column (GIN) against the reader's words
//    (websearch syntax, English stemming, the last word also as a prefix). Per category, one
//    count and one short list of candidates; the candidates of all categories are merged by
//    ts_rank_cd (relevancy) or by date, and only the page shown is loaded, in one query per
//    category through the domain's serializer, with a ts_headline snippet.
// 2. Typo tolerance: when full text finds nothing, the names of places, events, videos and
//    contests are compared by trigram word similarity (pg_trgm's <% operator on the
//    lower(name) trigram indexes), and the TYPO_LIMIT most similar of each category are the
//    answer (count included: a misspelling answers a short list, never thousands of pages).
//    Article headlines are matched through corrected words instead (typo.ts): each typed
//    word becomes the closest word that some headline has, and the TYPO_LIMIT most recent
//    headlines with all the corrected words are the answer. Scoring the query against every
//    headline took 90 ms for a misspelt common word ('resturant' is similar to 6,000 of
//    100,000 headlines); correcting words against the headlines' vocabulary does not grow
//    with the number of articles. Headlines are corrected also when full text finds other
//    things but no headline.
//
// Relevancy ranks, per category, the RELEVANCY_POOL most recent matches: exact for rare
// words, and for a word in thousands of articles it ranks the recent ones, which is what a
// news site's reader wants, and keeps a common word as fast as a rare one.
//
// The ranking (counts and the candidates up to the page asked for) is kept per query for
// COUNT_TTL_MS and refreshed ahead while it is read (count-cache.ts): a popular query costs
// one hydrating query per category shown, however many read it. Only the rows shown are
// loaded fresh, so a deleted object drops out at once; a new one appears within 15 s.

export const RELEVANCY_POOL = 400;
/**
 * Counts stop here; above it the count is the planner's estimate. Counting a word found in
 * 37,000 of 100,000 articles took 90 ms (every match's row is read); "about 37,000" is what
 * a reader needs, and the count of a rarer word stays exact.
 */
export const EXACT_COUNT_LIMIT = 2000;
/** Rankings deeper than this (offset + limit) are computed for each request, not kept. */
export const MAX_KEPT_CANDIDATES = 500;
/** Typo matching: how much of the query's trigrams a word of the name must share. */
export const TYPO_SIMILARITY = 0.5;
/** Typo matching: the most similar names kept per category. */
export const TYPO_LIMIT = 50;
/** The categories typo matching compares names in (see above); articles go by corrected words. */
export const TYPO_CATEGORIES: readonly SearchCategory[] = ['listings', 'events', 'videos', 'contests'];

export interface SiteSearchParams {
  q: string;
  categories: readonly SearchCategory[];
  ordering: SearchOrdering;
  offset: number;
  limit: number;
}

/** One result: the fields the search page and island read (shared/site-search.ts) and the domain's DTO. */
export interface SearchResult extends SiteSearchResultDTO {
  object: SearchObject;
}

export interface SiteSearchResult {
  count: number;
  /** Matches per category (for the grouped view); 0 for categories not searched. */
  counts: Record<SearchCategory, number>;
  /** Whether `count` is an estimate: some category has more than EXACT_COUNT_LIMIT matches. */
  count_estimated: boolean;
  /** 'fulltext', 'similar' (typo-tolerant fallback) or 'none'. */
  match: 'fulltext' | 'similar' | 'none';
  /** The query's words as corrected for headlines, when headlines were found that way; else null. */
  corrected: string | null;
  results: SearchResult[];
}

interface Candidate {
  category: SearchCategory;
  id: number;
  score: number;
  date: number;
}

export interface SearchOptions {
  now?: Date;
}

const emptyCounts = (): Record<SearchCategory, number> => Object.fromEntries(SEARCH_CATEGORIES.map((c) => [c, 0])) as Record<SearchCategory, number>;

export async function searchSite(db: Db, params: SiteSearchParams, siteUrl: string, opts: SearchOptions = {}): Promise<SiteSearchResult> {
  const now = minuteFloor(opts.now ?? new Date());
  const parsed = parseQueryText(params.q);
  const tsq = tsQuerySql(db, parsed);
  const categories = params.categories.length ? params.categories : SEARCH_CATEGORIES;
  const none: SiteSearchResult = { count: 0, counts: emptyCounts(), count_estimated: false, match: 'none', corrected: null, results: [] };
  if (!tsq && parsed.plain.length < 3) return none;

  const wanted = params.offset + params.limit;
  const key = JSON.stringify([parsed, categories, params.ordering, wanted, now.getTime()]);
  // Deep pages (a large offset) are not kept: they are rare, and would hold thousands of candidates each.
  const ranked = await cachedValue(db, `search\u0000${key}`, () => rank(db, parsed, tsq, categories, params.ordering, wanted, now), () => wanted <= MAX_KEPT_CANDIDATES);
  if (!ranked) return none;
  const { counted, estimated, match, corrected, top } = ranked;
  const total = sum(counted);
  const head = { count: total, counts: counted, count_estimated: estimated, match, corrected };
  if (params.offset >= total) return { ...head, results: [] };
  const page = top.slice(params.offset, wanted);
  // Similar matches highlight the corrected words (the typed ones are in no text).
  const correctedTsq = corrected ? db.raw(`plainto_tsquery('english', ?)`, [corrected]) : null;
  const highlight = correctedTsq && tsq ? db.raw('(? || ?)', [tsq, correctedTsq]) : (correctedTsq ?? tsq);
  const results = await hydrate(db, page, highlight ?? db.raw(`plainto_tsquery('english', ?)`, [parsed.plain]), siteUrl, now);
  return { ...head, results };
}

interface Ranked {
  counted: Record<SearchCategory, number>;
  /** Whether a count is the planner's estimate (more than EXACT_COUNT_LIMIT matches). */
  estimated: boolean;
  match: 'fulltext' | 'similar';
  corrected: string | null;
  /** The best `wanted` candidates of all categories, in order. */
  top: Candidate[];
}

/** Counts per category and the first `wanted` candidates, by full text or else by similar names. */
async function rank(db: Db, parsed: ParsedQuery, tsq: Knex.Raw | null, categories: readonly SearchCategory[], ordering: SearchOrdering, wanted: number, now: Date): Promise<Ranked | null> {
  let counted: Record<SearchCategory, number> | null = null;
  let estimated = false;
  let found: Candidate[] = [];
  let match: Ranked['match'] = 'fulltext';
  let corrected: string | null = null;
  if (tsq) {
    const strategy = fullText(db, tsq, ordering);
    ({ counted, estimated } = await countAll(db, strategy, categories, now));
    found = await candidates(db, strategy, categories.filter((c) => counted![c] > 0), now, wanted);
  }
  if (parsed.plain.length >= 3) {
    if (!counted || sum(counted) === 0) {
      ({ counted, found, corrected } = await similarNames(db, parsed.plain, categories, ordering, now));
      match = 'similar';
    } else if (categories.includes('articles') && counted.articles === 0) {
      // CASE: full text found other things ('pizaa' is the start of a place's name) but no
      // headline: headlines with the corrected words are added.
      const headlines = await similarNames(db, parsed.plain, ['articles'], ordering, now);
      counted.articles = headlines.counted.articles;
      found.push(...headlines.found);
      corrected = headlines.corrected;
    }
  }
  if (!counted || sum(counted) === 0) return null;
  const top = found.sort((a, b) => b.score - a.score || b.date - a.date || b.id - a.id).slice(0, wanted);
  return { counted, estimated, match, corrected, top };
}

const sum = (counts: Record<SearchCategory, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/** How full-text matching filters and scores rows of one category. */
interface Strategy {
  where(qb: Knex.QueryBuilder, category: SearchCategory): void;
  /** SQL for the score a candidate sorts by (higher first). */
  score(category: SearchCategory): Knex.Raw;
  ordering: SearchOrdering;
}

function fullText(db: Db, tsq: Knex.Raw, ordering: SearchOrdering): Strategy {
  const alias = (c: SearchCategory) => SOURCES[c].alias;
  return {
    ordering,
    where: (qb, c) => void qb.whereRaw(`${alias(c)}.search @@ ?`, [tsq]),
    score: (c) => db.raw(`ts_rank_cd(${alias(c)}.search, ?)`, [tsq]),
  };
}

/**
 * Typo tolerance: per category of TYPO_CATEGORIES, the TYPO_LIMIT names most similar to the
 * query, and the TYPO_LIMIT most recent headlines with the query's words corrected (one
 * statement for all of them, in a transaction for the threshold settings); the count of a
 * category is how many of those it has.
 */
async function similarNames(db: Db, plain: string, categories: readonly SearchCategory[], ordering: SearchOrdering, now: Date) {
  const counted = emptyCounts();
  const searched = categories.filter((c) => TYPO_CATEGORIES.includes(c));
  const headlines = categories.includes('articles');
  if (searched.length === 0 && !headlines) return { counted, found: [] as Candidate[], corrected: null };
  const { rows, corrected } = await db.transaction(async (trx) => {
    // The thresholds are session settings: set them for this transaction only.
    await trx.raw(`select set_config('pg_trgm.word_similarity_threshold', ?, true), set_config('pg_trgm.similarity_threshold', ?, true)`, [
      String(TYPO_SIMILARITY),
      String(WORD_SIMILARITY),
    ]);
    const parts = searched.map((c) => {
      const s = SOURCES[c];
      const name = `lower(${s.name})`;
      const qb = trx(`${s.table} as ${s.alias}`);
      s.visible(qb, now);
      return qb
        .whereRaw(`? <% ${name}`, [plain])
        .select(trx.raw('? as category', [c]), `${s.alias}.id`, trx.raw(`word_similarity(?, ${name}) as score`, [plain]), `${s.date} as date`)
        .orderBy('score', 'desc')
        .orderBy(s.date, 'desc')
        .orderBy(`${s.alias}.id`, 'desc')
        .limit(TYPO_LIMIT);
    });
    const correction = headlines ? await correctWords(trx, queryWords(plain)) : null;
    if (correction?.changed) {
      const s = SOURCES.articles;
      const qb = trx(`${s.table} as ${s.alias}`);
      s.visible(qb, now);
      parts.push(
        headlinesWithWords(qb, s.alias, correction.words)
          .select(trx.raw(`'articles' as category`), `${s.alias}.id`, trx.raw('?::real as score', [correction.score]), `${s.date} as date`)
          .orderBy(s.date, 'desc')
          .orderBy(`${s.alias}.id`, 'desc')
          .limit(TYPO_LIMIT),
      );
    }
    return { rows: parts.length ? await unionAll(trx, parts) : [], corrected: correction?.changed ? correction.words.join(' ') : null };
  });
  const found = rows.map((r) => {
    counted[r.category] += 1;
    // By date, every similar name is as good as another.
    return { category: r.category, id: r.id, score: ordering === '-date_published' ? 0 : Number(r.score), date: new Date(r.date).getTime() };
  });
  return { counted, found, corrected };
}

type CandidateRow = { category: SearchCategory; id: number; score: number | string; date: Date | string };

/** One round trip for one list per category: each part keeps its own order and limit. */
async function unionAll(db: Knex | Knex.Transaction, parts: Knex.QueryBuilder[]): Promise<CandidateRow[]> {
  const result = await db.raw(parts.map(() => '(?)').join(' union all '), parts);
  return (result as { rows: CandidateRow[] }).rows;
}

function matching(db: Knex, strategy: Strategy, c: SearchCategory, now: Date): Knex.QueryBuilder {
  const s = SOURCES[c];
  const qb = db(`${s.table} as ${s.alias}`);
  s.visible(qb, now);
  strategy.where(qb, c);
  return qb;
}

/**
 * Matches per category, in one statement. Each count stops at EXACT_COUNT_LIMIT + 1 rows; a
 * category with more says how many the planner expects instead (its statistics of the
 * tsvector column), and the answer says it is an estimate.
 */
async function countAll(db: Db, strategy: Strategy, categories: readonly SearchCategory[], now: Date): Promise<{ counted: Record<SearchCategory, number>; estimated: boolean }> {
  const counted = emptyCounts();
  const capped = categories.map((c) => db.raw('(select count(*) from (?) as m) as ??', [matching(db, strategy, c, now).select(db.raw('1')).limit(EXACT_COUNT_LIMIT + 1), c]));
  const [row] = (await db.select(capped)) as Array<Record<SearchCategory, number>>;
  const large = categories.filter((c) => Number(row[c]) > EXACT_COUNT_LIMIT);
  const estimates = await Promise.all(large.map((c) => plannedRows(db, matching(db, strategy, c, now).select(db.raw('1')))));
  categories.forEach((c) => (counted[c] = Number(row[c])));
  large.forEach((c, i) => (counted[c] = Math.max(estimates[i], EXACT_COUNT_LIMIT + 1)));
  return { counted, estimated: large.length > 0 };
}

/** The planner's estimate of how many rows a query answers (EXPLAIN, nothing is run). */
async function plannedRows(db: Db, qb: Knex.QueryBuilder): Promise<number> {
  const { sql, bindings } = qb.toSQL();
  const result = await db.raw(`explain (format json) ${sql}`, bindings as readonly Knex.RawBinding[]);
  const plan = (result as { rows: Array<{ 'QUERY PLAN': unknown }> }).rows[0]['QUERY PLAN'];
  const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as Array<{ Plan: { 'Plan Rows': number } }>;
  return Math.round(parsed[0].Plan['Plan Rows']);
}

/** The best `wanted` candidates of each category, in one statement. */
async function candidates(db: Db, strategy: Strategy, categories: readonly SearchCategory[], now: Date, wanted: number): Promise<Candidate[]> {
  if (categories.length === 0) return [];
  const parts = categories.map((c) => {
    const s = SOURCES[c];
    if (strategy.ordering === '-date_published') {
      return matching(db, strategy, c, now)
        .select(db.raw('? as category', [c]), `${s.alias}.id`, db.raw(`0 as score`), `${s.date} as date`)
        .orderBy(s.date, 'desc')
        .orderBy(`${s.alias}.id`, 'desc')
        .limit(wanted);
    }
    // Score the most recent matches (an index walk by date for common words, the GIN
    // index for rare ones), then keep the best `wanted`. The pool carries only what the
    // score needs: the id, the date and the tsvector.
    const dateColumn = s.date.split('.')[1];
    const pool = matching(db, strategy, c, now)
      .select(`${s.alias}.id`, `${s.date}`, `${s.alias}.search`)
      .orderBy(s.date, 'desc')
      .orderBy(`${s.alias}.id`, 'desc')
      .limit(Math.max(RELEVANCY_POOL, wanted));
    return db
      .from(pool.as(s.alias))
      .select(db.raw('? as category', [c]), `${s.alias}.id`, db.raw('? as score', [strategy.score(c)]), `${s.alias}.${dateColumn} as date`)
      .orderBy('score', 'desc')
      .orderBy('date', 'desc')
      .orderBy(`${s.alias}.id`, 'desc')
      .limit(wanted);
  });
  const rows = await unionAll(db, parts);
  return rows.map((r) => ({ category: r.category, id: r.id, score: Number(r.score), date: new Date(r.date).getTime() }));
}

async function hydrate(db: Db, page: Candidate[], tsq: Knex.Raw, siteUrl: string, now: Date): Promise<SearchResult[]> {
  const byCategory = new Map<SearchCategory, number[]>();
  for (const p of page) byCategory.set(p.category, [...(byCategory.get(p.category) ?? []), p.id]);
  const loaded = new Map<string, SearchResult>();
  await Promise.all(
    [...byCategory].map(async ([c, ids]) => {
      const s = SOURCES[c];
      const strip = (sql: string) => `translate(${sql}, '${MARK_START}${MARK_END}', '')`;
      const rows = await s.load(
        db,
        now,
        ids,
        [
          db.raw(`ts_headline('english', ${strip(s.snippetText)}, ?, ?) as search_snippet`, [tsq, HEADLINE_OPTIONS]),
          db.raw(`ts_headline('english', ${strip(s.name)}, ?, 'HighlightAll=true, StartSel=${MARK_START}, StopSel=${MARK_END}') as search_title`, [tsq]),
        ],
        siteUrl,
      );
      for (const h of rows) {
        loaded.set(`${c}:${h.id}`, {
          category: c,
          id: h.id,
          title: h.title,
          highlighted_title: highlightedHtml(h.search_title),
          share_url: h.share_url,
          image_url: h.image_url,
          date_published: h.date,
          snippet: highlightedHtml(h.search_snippet),
          object: h.object,
        });
      }
    }),
  );
  return page.map((p) => loaded.get(`${p.category}:${p.id}`)).filter((r): r is SearchResult => Boolean(r));
}
