import type { Db } from '../../db';
import { parseQueryText, queryForm, type ParsedQuery } from './query-text';
import { highlightedHtml } from './snippet';
import { SEARCH_CATEGORIES, SOURCES, type SearchCategory, type SearchObject } from './source-queries';
import type { SearchOrdering } from './params';
import { cachedValue, minuteFloor } from '../../db/count-cache';
import { sharedAnswer } from '../../db/answer-cache';
import type { SiteSearchResultDTO } from '../../../shared/site-search';
import { emptyCounts, rank, sum, type Candidate, type LoadedRow, type PageLoad } from './ranking-queries';
import { createStatementCache, type StatementCache } from './named-statement-queries';
import { pageQuery, pageRows, tsQuerySql, type PageValues } from './queries';

export { EXACT_COUNT_LIMIT, RELEVANCY_POOL, TYPO_CATEGORIES, TYPO_LIMIT, TYPO_SIMILARITY } from './ranking-queries';

// Site search (spec 2 §2, §7): one query over articles, listings, events, videos and contests.
// A search nobody made lately (no cache answers it) is one statement, its typo paths
// included: the ranking with the page (ranking-queries.ts), prepared once per shape
// (named-statement-queries.ts). At city scale each statement is a round trip with a parse
// and a plan on both sides; the same search was eight (a count, the candidates, a transaction
// of four for headline corrections, one load per category on the page).
//
// 1. Full text: each category's tsvector `search` column (GIN) against the reader's words
//    (websearch syntax, English stemming, the last word also as a prefix). Per category, one
//    count and one short list of candidates; the candidates of all categories are merged by
//    ts_rank_cd (relevancy) or by date, and only the page shown is loaded, each category's
//    rows through its domain's query and serializer, with a ts_headline snippet.
// 2. Typo tolerance (in the same statement): when full text finds nothing, the names of
//    places, events, videos and contests are compared by trigram word similarity (pg_trgm's
//    <% operator on the lower(name) trigram indexes), and the TYPO_LIMIT most similar of each
//    category are the answer (count included: a misspelling answers a short list, never
//    thousands of pages).
//    Article headlines are matched through corrected words instead (typo-queries.ts): each typed
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
// COUNT_TTL_MS and refreshed ahead while it is read (count-cache.ts), so the next pages of a
// query cost only their page's statement. The whole answer, the same for everybody (nothing
// in it is per member), is kept too (db/answer-cache.ts): at city scale the five hydrating
// queries with their ts_headline snippets were most of a popular query's cost (p99 250 ms at
// 20 connections for members and guests with other cookies, whom the guest response cache
// does not serve). A deleted object drops out, and a new one appears, within seconds.

/** Rankings deeper than this (offset + limit) are computed for each request, not kept. */
export const MAX_KEPT_CANDIDATES = 500;

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

export interface SearchOptions {
  now?: Date;
}

export type SearchService = ReturnType<typeof createSearchService>;

/**
 * Built once per app by the registry (apps/index.ts), for the search API and the search page:
 * it keeps the statements compiled per shape (named-statement-queries.ts). It needs nothing from the
 * context: each search names its database (the API and the page both read from the read
 * pool, so they share answers), its site and its time. The answers and rankings are kept per
 * database in the core's caches (db/answer-cache.ts, db/count-cache.ts).
 */
export function createSearchService() {
  const statements = createStatementCache();
  return {
    async searchSite(db: Db, params: SiteSearchParams, siteUrl: string, opts: SearchOptions = {}): Promise<SiteSearchResult> {
      const now = minuteFloor(opts.now ?? new Date());
      const key = JSON.stringify(['search', params.q, params.categories, params.ordering, params.offset, params.limit, siteUrl]);
      // Deep pages are rare and not kept (as their rankings are not). Search shows every kind
      // of content (stories, places, events, videos, contests): its answers and rankings carry
      // no tags, so any change drops them (db/answer-cache.ts), a future kind of key included.
      return sharedAnswer(db, key, () => answer(db, statements, params, siteUrl, now), { keep: () => params.offset + params.limit <= MAX_KEPT_CANDIDATES, minute: now });
    },
  };
}

/** The answer, computed (its ranking may come from the ranking cache). */
async function answer(db: Db, statements: StatementCache, params: SiteSearchParams, siteUrl: string, now: Date): Promise<SiteSearchResult> {
  const parsed = parseQueryText(params.q);
  const tsq = tsQuerySql(db, parsed);
  const categories = params.categories.length ? params.categories : SEARCH_CATEGORIES;
  const none: SiteSearchResult = { count: 0, counts: emptyCounts(), count_estimated: false, match: 'none', corrected: null, results: [] };
  // Without letters or digits there is nothing to match, by full text or by similar names.
  if (!tsq) return none;

  const wanted = params.offset + params.limit;
  const key = JSON.stringify([parsed, categories, params.ordering, wanted, now.getTime()]);
  // The page comes with the ranking when this request computes it (not when the ranking is
  // kept, or computed by another request meanwhile): one statement for the whole search.
  const load: PageLoad = { offset: params.offset, query: (c, ids, tsq, at) => pageQuery(db, c, ids, tsq, at) };
  let loaded: LoadedRow[] = [];
  const compute = async () => {
    const out = await rank(db, statements, parsed, categories, params.ordering, wanted, now, load);
    loaded = out.loaded;
    return out.ranked;
  };
  // Deep pages (a large offset) are not kept: they are rare, and would hold thousands of candidates each.
  const ranked = await cachedValue(db, `search\u0000${key}`, compute, { keep: () => wanted <= MAX_KEPT_CANDIDATES });
  if (!ranked) return none;
  const { counted, estimated, match, corrected, top } = ranked;
  const total = sum(counted);
  const head = { count: total, counts: counted, count_estimated: estimated, match, corrected };
  if (params.offset >= total) return { ...head, results: [] };
  const page = top.slice(params.offset, wanted);
  const known = new Map<string, SearchResult>();
  for (const { category, row } of loaded) known.set(`${category}:${row.id}`, toSearchResult(category, row, siteUrl, now));
  const results = await hydrate(db, statements, page, parsed, corrected, siteUrl, now, known);
  return { ...head, results };
}

function toSearchResult(c: SearchCategory, row: Record<string, unknown>, siteUrl: string, now: Date): SearchResult {
  const h = SOURCES[c].toResult(row, siteUrl, now);
  return {
    category: c,
    id: h.id,
    title: h.title,
    highlighted_title: highlightedHtml(h.search_title),
    share_url: h.share_url,
    image_url: h.image_url,
    date_published: h.date,
    snippet: highlightedHtml(h.search_snippet),
    object: h.object,
  };
}

/**
 * The page's results: those `known` (loaded with the ranking), and the others in one statement
 * for all their categories (queries.ts's pageRows: each category's rows through its domain's
 * query, highlighted by the query's words, and by the words it was corrected to).
 */
async function hydrate(db: Db, statements: StatementCache, page: Candidate[], parsed: ParsedQuery, corrected: string | null, siteUrl: string, now: Date, known: Map<string, SearchResult>): Promise<SearchResult[]> {
  const keyOf = (p: { category: SearchCategory; id: number }) => `${p.category}:${p.id}`;
  const byCategory = new Map<SearchCategory, number[]>();
  for (const p of page) if (!known.has(keyOf(p))) byCategory.set(p.category, [...(byCategory.get(p.category) ?? []), p.id]);
  if (byCategory.size === 0) return page.map((p) => known.get(keyOf(p))).filter((r): r is SearchResult => Boolean(r));
  const categories = [...byCategory.keys()];
  const form = { ...queryForm(parsed), corrected: corrected !== null };
  // The ids of each category are a value of their own (the page's categories are its shape).
  const values: PageValues = { web: parsed.web, prefix: parsed.prefix ?? '', corrected: corrected ?? '', plain: parsed.plain, now, ...Object.fromEntries(byCategory) };
  const rows = await pageRows(db, statements, categories, form, values);
  for (const r of rows) {
    const result = toSearchResult(r.category, JSON.parse(r.json) as Record<string, unknown>, siteUrl, now);
    known.set(keyOf(result), result);
  }
  // An object deleted since its ranking was kept is left out.
  return page.map((p) => known.get(keyOf(p))).filter((r): r is SearchResult => Boolean(r));
}
