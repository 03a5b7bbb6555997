import type { Knex } from 'knex';
import type { Db } from '../../db';
import { parseQueryText, tsQuerySql, type ParsedQuery } from './query-text';
import { HEADLINE_OPTIONS, MARK_END, MARK_START, highlightedHtml } from './snippet';
import { SEARCH_CATEGORIES, SOURCES, type SearchCategory, type SearchObject } from './sources';
import type { SearchOrdering } from './params';
import { cachedCount, minuteFloor } from './count-cache';

// Site search (spec 2 §2, §7): one query over articles, listings, events, videos and contests.
//
// 1. Full text: each category's tsvector `search` column (GIN) against the reader's words
//    (websearch syntax, English stemming, the last word also as a prefix). Per category, one
//    count and one short list of candidates; the candidates of all categories are merged by
//    ts_rank_cd (relevancy) or by date, and only the page shown is loaded, in one query per
//    category through the domain's serializer, with a ts_headline snippet.
// 2. Typo tolerance: when full text finds nothing, names are compared by trigram word
//    similarity (pg_trgm's <% operator on the lower(name) trigram indexes).
//
// Relevancy ranks, per category, the RELEVANCY_POOL most recent matches: exact for rare
// words, and for a word in thousands of articles it ranks the recent ones, which is what a
// news site's reader wants, and keeps a common word as fast as a rare one.

export const RELEVANCY_POOL = 400;
/** Typo matching: how much of the query's trigrams a word of the name must share. */
export const TYPO_SIMILARITY = 0.5;

export interface SiteSearchParams {
  q: string;
  categories: readonly SearchCategory[];
  ordering: SearchOrdering;
  offset: number;
  limit: number;
}

export interface SearchResult {
  category: SearchCategory;
  id: number;
  title: string;
  /** The title as escaped HTML with the matched words in <mark>. */
  highlighted_title: string;
  share_url: string;
  image_url: string | null;
  date_published: string | null;
  /** A passage around the matches as escaped HTML with the matched words in <mark>. */
  snippet: string;
  object: SearchObject;
}

export interface SiteSearchResult {
  count: number;
  /** Matches per category (for the grouped view); 0 for categories not searched. */
  counts: Record<SearchCategory, number>;
  /** 'fulltext', 'similar' (typo-tolerant fallback) or 'none'. */
  match: 'fulltext' | 'similar' | 'none';
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
  const none: SiteSearchResult = { count: 0, counts: emptyCounts(), match: 'none', results: [] };
  if (!tsq && parsed.plain.length < 3) return none;

  const wanted = params.offset + params.limit;
  let strategy: Strategy | null = tsq ? fullText(db, tsq, params.ordering) : null;
  let counted = strategy ? await countAll(db, strategy, categories, now) : null;
  let match: SiteSearchResult['match'] = 'fulltext';
  if ((!counted || sum(counted) === 0) && parsed.plain.length >= 3) {
    strategy = similarNames(db, parsed, params.ordering);
    counted = await countAll(db, strategy, categories, now);
    match = 'similar';
  }
  if (!strategy || !counted || sum(counted) === 0) return none;

  const total = sum(counted);
  if (params.offset >= total) return { count: total, counts: counted, match, results: [] };
  const found = categories.filter((c) => counted![c] > 0);
  const lists = strategy.pooled
    ? await Promise.all(found.map((c) => candidates(db, strategy!, c, now, wanted)))
    : await sequentially(found, (c) => candidates(db, strategy!, c, now, wanted));
  const page = lists
    .flat()
    .sort((a, b) => b.score - a.score || b.date - a.date || b.id - a.id)
    .slice(params.offset, wanted);
  const results = await hydrate(db, page, tsq ?? db.raw(`plainto_tsquery('english', ?)`, [parsed.plain]), siteUrl, now);
  return { count: total, counts: counted, match, results };
}

async function sequentially<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (const item of items) out.push(await fn(item));
  return out;
}

const sum = (counts: Record<SearchCategory, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/** How one kind of match filters, counts and scores rows of one category. */
interface Strategy {
  where(qb: Knex.QueryBuilder, category: SearchCategory): void;
  /** SQL for the score a candidate sorts by (higher first). */
  score(category: SearchCategory): Knex.Raw;
  /** Runs queries that need session settings (trigram thresholds). */
  run<T>(fn: (db: Knex | Knex.Transaction) => Promise<T>): Promise<T>;
  ordering: SearchOrdering;
  /** Whether to score only the RELEVANCY_POOL most recent matches. */
  pooled: boolean;
}

function fullText(db: Db, tsq: Knex.Raw, ordering: SearchOrdering): Strategy {
  const alias = (c: SearchCategory) => SOURCES[c].alias;
  return {
    ordering,
    pooled: true,
    where: (qb, c) => void qb.whereRaw(`${alias(c)}.search @@ ?`, [tsq]),
    score: (c) => db.raw(`ts_rank_cd(${alias(c)}.search, ?)`, [tsq]),
    run: (fn) => fn(db),
  };
}

function similarNames(db: Db, parsed: ParsedQuery, ordering: SearchOrdering): Strategy {
  const name = (c: SearchCategory) => `lower(${SOURCES[c].name})`;
  return {
    ordering,
    pooled: false,
    where: (qb, c) => void qb.whereRaw(`? <% ${name(c)}`, [parsed.plain]),
    score: (c) => db.raw(`word_similarity(?, ${name(c)})`, [parsed.plain]),
    // The threshold is a session setting: set it for this transaction only.
    run: (fn) =>
      db.transaction(async (trx) => {
        await trx.raw(`select set_config('pg_trgm.word_similarity_threshold', ?, true)`, [String(TYPO_SIMILARITY)]);
        return fn(trx);
      }),
  };
}

function matching(db: Knex, strategy: Strategy, c: SearchCategory, now: Date): Knex.QueryBuilder {
  const s = SOURCES[c];
  const qb = db(`${s.table} as ${s.alias}`);
  s.visible(qb, now);
  strategy.where(qb, c);
  return qb;
}

async function countAll(db: Db, strategy: Strategy, categories: readonly SearchCategory[], now: Date): Promise<Record<SearchCategory, number>> {
  const counts = emptyCounts();
  await strategy.run(async (conn) => {
    const count = (c: SearchCategory) => cachedCount(conn === db ? db : conn, matching(conn, strategy, c, now).count({ count: '*' }));
    // One connection (a transaction) answers one query at a time; the pool answers in parallel.
    const rows = strategy.pooled ? await Promise.all(categories.map(count)) : await sequentially(categories, count);
    categories.forEach((c, i) => (counts[c] = rows[i]));
  });
  return counts;
}

async function candidates(db: Db, strategy: Strategy, c: SearchCategory, now: Date, wanted: number): Promise<Candidate[]> {
  const s = SOURCES[c];
  return strategy.run(async (conn) => {
    let rows: Array<{ id: number; score: number; date: Date | string }>;
    if (strategy.ordering === '-date_published') {
      rows = await matching(conn, strategy, c, now)
        .select(`${s.alias}.id`, db.raw(`0 as score`), `${s.date} as date`)
        .orderBy(s.date, 'desc')
        .orderBy(`${s.alias}.id`, 'desc')
        .limit(wanted);
    } else if (!strategy.pooled) {
      rows = await matching(conn, strategy, c, now)
        .select(`${s.alias}.id`, conn.raw('? as score', [strategy.score(c)]), `${s.date} as date`)
        .orderBy('score', 'desc')
        .orderBy(s.date, 'desc')
        .orderBy(`${s.alias}.id`, 'desc')
        .limit(wanted);
    } else {
      // Score the most recent matches (an index walk by date for common words, the GIN
      // index for rare ones), then keep the best `wanted`.
      const pool = matching(conn, strategy, c, now)
        .select(`${s.alias}.*`)
        .orderBy(s.date, 'desc')
        .orderBy(`${s.alias}.id`, 'desc')
        .limit(Math.max(RELEVANCY_POOL, wanted));
      rows = await conn
        .from(pool.as(s.alias))
        .select(`${s.alias}.id`, conn.raw('? as score', [strategy.score(c)]), `${s.alias}.${s.date.split('.')[1]} as date`)
        .orderBy('score', 'desc')
        .orderBy('date', 'desc')
        .orderBy(`${s.alias}.id`, 'desc')
        .limit(wanted);
    }
    return rows.map((r) => ({ category: c, id: r.id, score: Number(r.score), date: new Date(r.date).getTime() }));
  });
}

async function hydrate(db: Db, page: Candidate[], tsq: Knex.Raw, siteUrl: string, now: Date): Promise<SearchResult[]> {
  const byCategory = new Map<SearchCategory, number[]>();
  for (const p of page) byCategory.set(p.category, [...(byCategory.get(p.category) ?? []), p.id]);
  const loaded = new Map<string, SearchResult>();
  await Promise.all(
    [...byCategory].map(async ([c, ids]) => {
      const s = SOURCES[c];
      const strip = (sql: string) => `translate(${sql}, '${MARK_START}${MARK_END}', '')`;
      const rows: Array<Record<string, unknown>> = await s
        .rows(db, now)
        .whereIn(`${s.alias}.id`, ids)
        .select(
          db.raw(`ts_headline('english', ${strip(s.snippetText)}, ?, ?) as search_snippet`, [tsq, HEADLINE_OPTIONS]),
          db.raw(`ts_headline('english', ${strip(s.name)}, ?, 'HighlightAll=true, StartSel=${MARK_START}, StopSel=${MARK_END}') as search_title`, [tsq]),
        );
      for (const row of rows) {
        const h = s.hydrate(row, siteUrl, now);
        loaded.set(`${c}:${h.id}`, {
          category: c,
          id: h.id,
          title: h.title,
          highlighted_title: highlightedHtml(row.search_title as string),
          share_url: h.share_url,
          image_url: h.image_url,
          date_published: h.date,
          snippet: highlightedHtml(row.search_snippet as string),
          object: h.object,
        });
      }
    }),
  );
  return page.map((p) => loaded.get(`${p.category}:${p.id}`)).filter((r): r is SearchResult => Boolean(r));
}
