import type { Knex } from 'knex';
import type { Db } from '../../db';
import { queryForm, type ParsedQuery } from './query-text';
import { tsQuerySql } from './queries';
import { SEARCH_CATEGORIES, SOURCES, type SearchCategory } from './source-queries';
import type { SearchOrdering } from './params';
import type { StatementCache } from './named-statement-queries';
import { cachedValue } from '../../db/count-cache';
import { chooseCorrection, correctWords, correctionCandidatesSql, headlinesWithWords, queryWords, type Correction, type CorrectionCandidate } from './typo-queries';

// Site search's ranking (service.ts says what it answers): the counts per category and the
// best candidates of all categories, by full text or else by similar names.
//
// The full-text counts, each category's candidates (only where its count is not 0), when no
// headline matches the candidate corrections of the query's words for headlines (typo-queries.ts),
// and the rows of the page shown are one statement (fullText below). Others run only when needed: the planner's
// estimate and the candidates of a category with more than EXACT_COUNT_LIMIT matches, the
// headlines with corrected words (when a word was corrected), and the typo pass on names
// (when full text finds nothing).

/** Relevancy ranks, per category, this many of the most recent matches (service.ts says why). */
export const RELEVANCY_POOL = 400;
/**
 * Counts stop here; above it the count is the planner's estimate. Counting a word found in
 * 37,000 of 100,000 articles took 90 ms (every match's row is read); "about 37,000" is what
 * a reader needs, and the count of a rarer word stays exact.
 */
export const EXACT_COUNT_LIMIT = 2000;
/**
 * How relevancy's pool is found for a category with more than EXACT_COUNT_LIMIT matches (N,
 * the planner's estimate, in a table of T rows): every match found by the GIN index, the
 * most recent taken from them (N rows read), or a walk down the date index until the pool is
 * full (about RELEVANCY_POOL x T / N rows read, each with its tsvector). Measured on the
 * city seed (100,000 articles, PostgreSQL 15): 'yonge' (3,211 matches) walked 12,300 rows in
 * 33 ms where its matches took 10 ms; 'patio' (6,303) 19 and 21 ms; 'decade' (42,000) walked
 * in 5 ms, its matches took 103 ms. The planner, left to choose, walked for all three. Whole
 * searches put the crossover lower than N x N = RELEVANCY_POOL x T ('patio' was slower from
 * its matches), hence the factor 2: 'yonge' (estimated at 3,869) goes from 45 to 26 ms, and
 * words above about 4,500 matches in 100,000 rows keep the walk.
 */
export function poolFromMatches(matches: number, tableRows: number): boolean {
  return 2 * matches * matches <= RELEVANCY_POOL * tableRows;
}
/**
 * Where the table has a RUM index (migrations/20261128000100_search_rum_indexes.ts, PostgreSQL
 * with the extension), the index answers the most recent matches itself, at a cost that
 * grows with the number of matches (it orders their entries by date): about 0.5 us a match,
 * against the walk's 1.8 us a row walked (RELEVANCY_POOL x T / N rows). Measured on the city
 * seed (100,000 articles), RUM / walk: 'restaurant' (6,270 matches) 3.1 / 11.2 ms,
 * 'toronto' (10,411) 5.0 / 7.0, 'park' (17,941) 9.2 / 5.2, 'decade' (42,055) 15.6 / 2.0. The
 * crossover, N x N = 1,400 x T, is about 11,800 matches in 100,000 rows; below it RUM is
 * also faster than reading every match (poolFromMatches), which took 10 ms for 3,200.
 */
const RUM_CROSSOVER = 1400;
/** How relevancy's pool of a category with more than EXACT_COUNT_LIMIT matches is found. */
export type PoolPath = 'walk' | 'matches' | 'rum';
/** A category's table as poolPath needs it (searchTables reads it). */
export interface SearchTable {
  /** The planner's count of its rows (0 when it was never analyzed). */
  rows: number;
  /** Whether it has a RUM index (on `search`: the one RUM index a table may have). */
  rum: boolean;
}
export function poolPath(matches: number, table: SearchTable): PoolPath {
  if (table.rum) return matches * matches <= RUM_CROSSOVER * table.rows ? 'rum' : 'walk';
  return poolFromMatches(matches, table.rows) ? 'matches' : 'walk';
}
/** Typo matching: how much of the query's trigrams a word of the name must share. */
export const TYPO_SIMILARITY = 0.5;
/** Typo matching: the most similar names kept per category. */
export const TYPO_LIMIT = 50;
/** The categories typo matching compares names in (service.ts); articles go by corrected words. */
export const TYPO_CATEGORIES: readonly SearchCategory[] = ['listings', 'events', 'videos', 'contests'];

export interface Candidate {
  category: SearchCategory;
  id: number;
  score: number;
  date: number;
}

export interface Ranked {
  counted: Record<SearchCategory, number>;
  /** Whether a count is the planner's estimate (more than EXACT_COUNT_LIMIT matches). */
  estimated: boolean;
  match: 'fulltext' | 'similar';
  corrected: string | null;
  /** The best `wanted` candidates of all categories, in order. */
  top: Candidate[];
}

export const emptyCounts = (): Record<SearchCategory, number> => Object.fromEntries(SEARCH_CATEGORIES.map((c) => [c, 0])) as Record<SearchCategory, number>;

export const sum = (counts: Record<SearchCategory, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/**
 * A page of results to load in the ranking's statement: from `offset` on, as full text ranks
 * it; `query` loads category c's rows whose ids are in `ids` (SQL for an integer array),
 * highlighted by `tsq` (both may be stand-ins: named-statement-queries.ts).
 */
export interface PageLoad {
  offset: number;
  query(c: SearchCategory, ids: Knex.Raw, tsq: Knex.Raw, now: Date): Knex.QueryBuilder;
}

/** A row PageLoad.query answered, as row_to_json made it. */
export interface LoadedRow {
  category: SearchCategory;
  row: Record<string, unknown>;
}

/**
 * Counts per category and the first `wanted` candidates, by full text or else by similar
 * names; with `load`, also the rows of the page full text ranks from `load.offset` on (the
 * caller checks that the page it shows is that one: corrections and categories with more
 * than EXACT_COUNT_LIMIT matches add candidates after the statement). `statements`: the search
 * service's compiled statements.
 */
export async function rank(
  db: Db,
  statements: StatementCache,
  parsed: ParsedQuery,
  tsq: Knex.Raw | null,
  categories: readonly SearchCategory[],
  ordering: SearchOrdering,
  wanted: number,
  now: Date,
  load?: PageLoad,
): Promise<{ ranked: Ranked | null; loaded: LoadedRow[] }> {
  let loaded: LoadedRow[] = [];
  let counted: Record<SearchCategory, number> | null = null;
  let estimated = false;
  let found: Candidate[] = [];
  let match: Ranked['match'] = 'fulltext';
  let corrected: string | null = null;
  // The words headlines are corrected by (when no headline matches them as typed).
  const words = parsed.plain.length >= 3 && categories.includes('articles') ? queryWords(parsed.plain) : [];
  let corrections: CorrectionCandidate[] | undefined;
  if (tsq) ({ counted, estimated, found, corrections, loaded } = await fullText(db, statements, parsed, tsq, categories, ordering, now, wanted, words, load));
  if (parsed.plain.length >= 3) {
    if (!counted || sum(counted) === 0) {
      ({ counted, found, corrected } = await similarNames(db, parsed.plain, categories, ordering, now, corrections));
      match = 'similar';
    } else if (categories.includes('articles') && counted.articles === 0) {
      // CASE: full text found other things ('pizaa' is the start of a place's name) but no
      // headline: headlines with the corrected words are added.
      const correction = chooseCorrection(words, corrections ?? []);
      if (correction?.changed) {
        const rows = await headlines(db, correction, now);
        counted.articles = rows.length;
        found.push(...rows.map((r) => candidate(r, ordering)));
        corrected = correction.words.join(' ');
      }
    }
  }
  if (!counted || sum(counted) === 0) return { ranked: null, loaded: [] };
  const top = found.sort((a, b) => b.score - a.score || b.date - a.date || b.id - a.id).slice(0, wanted);
  return { ranked: { counted, estimated, match, corrected, top }, loaded };
}

/** Category c's visible rows that match the words, for the planner to find as it sees fit. */
function matching(db: Knex, tsq: Knex.Raw, c: SearchCategory, now: Date): Knex.QueryBuilder {
  const s = SOURCES[c];
  const qb = db(`${s.table} as ${s.alias}`);
  s.visible(qb, now);
  return qb.whereRaw(`${s.alias}.search @@ ?`, [tsq]);
}

/**
 * matching() with the row address (`row`), and the visibility filter applied to what the
 * GIN index found: the subquery (offset 0 keeps it whole) offers the planner no other way
 * in. A generic plan (named-statement-queries.ts) knows neither the words nor "now", and would
 * otherwise AND the GIN index with every row of the date index (published before "now").
 */
function matchingByWords(db: Knex, tsq: Knex.Raw, c: SearchCategory, now: Date): Knex.QueryBuilder {
  const s = SOURCES[c];
  const qb = db.from(db.raw(`(select ${s.alias}.ctid as row, ${s.alias}.* from ${s.table} as ${s.alias} where ${s.alias}.search @@ ? offset 0) as ${s.alias}`, [tsq]));
  s.visible(qb, now);
  return qb;
}

/**
 * A category's best `wanted` full-text matches: id, score (higher first) and date. `pool`: how
 * relevancy's pool is found (poolPath): a walk down the date index, all the matches, or the
 * RUM index (only where the table has one).
 */
export function bestMatches(db: Db, tsq: Knex.Raw, c: SearchCategory, ordering: SearchOrdering, now: Date, wanted: number, pool: PoolPath = 'walk'): Knex.QueryBuilder {
  const s = SOURCES[c];
  if (ordering === '-date_published') {
    return matching(db, tsq, c, now)
      .select(`${s.alias}.id`, db.raw('0 as score'), `${s.date} as date`)
      .orderBy(s.date, 'desc')
      .orderBy(`${s.alias}.id`, 'desc')
      .limit(wanted);
  }
  if (pool === 'matches') return recentMatchesRanked(db, tsq, c, now, wanted);
  // Relevancy ranks the RELEVANCY_POOL most recent matches (an index walk by date for common
  // words, the GIN index for rare ones), then keeps the best `wanted`. The pool carries only
  // what the score needs: the id, the date and the tsvector.
  const dateColumn = s.date.split('.')[1];
  const recent = matching(db, tsq, c, now).select(`${s.alias}.id`, `${s.date}`, `${s.alias}.search`);
  // RUM orders by distance from now (<=|: dates up to now, the nearest first), which is the
  // date descending; rows published at the same instant come in the index's order, not by id,
  // and a row dated after now (only listings have no such filter, and none is) comes last.
  if (pool === 'rum') recent.orderByRaw(`${s.date} <=| ?::timestamptz`, [now]);
  else recent.orderBy(s.date, 'desc').orderBy(`${s.alias}.id`, 'desc');
  recent.limit(Math.max(RELEVANCY_POOL, wanted));
  return db
    .from(recent.as(s.alias))
    .select(`${s.alias}.id`, db.raw(`ts_rank_cd(${s.alias}.search, ?) as score`, [tsq]), `${s.alias}.${dateColumn} as date`)
    .orderBy('score', 'desc')
    .orderBy('date', 'desc')
    .orderBy(`${s.alias}.id`, 'desc')
    .limit(wanted);
}

/**
 * bestMatches' relevancy pool taken from all the matches: the GIN index finds them, only
 * their row address, id and date are kept, and the tsvectors of the RELEVANCY_POOL most
 * recent are read by row address for the score (as the full-text statement does for a
 * category it counted whole).
 */
function recentMatchesRanked(db: Db, tsq: Knex.Raw, c: SearchCategory, now: Date, wanted: number): Knex.QueryBuilder {
  const s = SOURCES[c];
  const pool = matchingByWords(db, tsq, c, now).select(`${s.alias}.row`).orderBy(s.date, 'desc').orderBy(`${s.alias}.id`, 'desc').limit(Math.max(RELEVANCY_POOL, wanted));
  return db(`${s.table} as ${s.alias}`)
    .whereRaw(`${s.alias}.ctid = any(array(?))`, [pool])
    .select(`${s.alias}.id`, db.raw(`ts_rank_cd(${s.alias}.search, ?) as score`, [tsq]), `${s.date} as date`)
    .orderBy('score', 'desc')
    .orderBy('date', 'desc')
    .orderBy(`${s.alias}.id`, 'desc')
    .limit(wanted);
}

/** One row of the full-text statement: a count ('n'), a candidate ('c'), a correction candidate ('w') or a row of the page ('h'). */
type FullTextRow = { kind: 'n' | 'c' | 'w' | 'h'; category: SearchCategory; id: number; score: number | string; date: Date | string; typed: string; word: string; json: string };

/**
 * The full-text ranking, in one (named) statement for most words. Per category, the matches
 * are read once (the GIN index), at most EXACT_COUNT_LIMIT + 1 of them, with their row
 * address, id and date: their number is the count, and when that is all of them (and not
 * none) the candidates come from them: the pool is the most recent of them, whose tsvectors
 * are read by row address for the score. When no headline matches and there are `words` to
 * correct, the headline words close to them come too. With `load`, the candidates of all
 * categories are merged as rank() merges them and the page's rows are loaded (row_to_json,
 * as each domain's query answers them). Only a category with more matches than that needs
 * more: its count becomes what the planner expects (its statistics of the
 * tsvector column; the answer says it is an estimate) and its candidates a query of their
 * own (an index walk by date, which the planner chooses for common words; not named: its
 * best plan depends on the word).
 */
async function fullText(db: Db, statements: StatementCache, parsed: ParsedQuery, tsq: Knex.Raw, categories: readonly SearchCategory[], ordering: SearchOrdering, now: Date, wanted: number, words: string[], load?: PageLoad) {
  const withWords = words.length > 0 && categories.includes('articles');
  const form = queryForm(parsed);
  const offset = load?.offset ?? 0;
  const values = { web: parsed.web, prefix: parsed.prefix ?? '', now, words, wanted, pool: Math.max(RELEVANCY_POOL, wanted), offset, pageSize: wanted - offset };
  const shape = JSON.stringify(['ranking', categories, ordering, form, withWords, Boolean(load)]);
  const statement = statements.prepared(db, shape, values, (v) => {
    // The query as tsQuerySql makes it, of the stand-ins.
    const query = tsQuerySql(db, { web: form.web ? v.web : '', prefix: form.prefix ? v.prefix : null, plain: '' })!;
    const matches = (c: SearchCategory) => `m_${c}`;
    const ctes = categories.map((c) => {
      const s = SOURCES[c];
      const rows = matchingByWords(db, query, c, v.now).select(`${s.alias}.row`, `${s.alias}.id`, db.raw(`${s.date} as date`));
      return db.raw(`${matches(c)} as materialized (?)`, [rows.limit(EXACT_COUNT_LIMIT + 1)]);
    });
    const counts = db.raw(`n as (select ${categories.map((c) => `(select count(*) from ${matches(c)}) as ${c}`).join(', ')})`);
    // Candidates only where the matches read are all there are, and there are some.
    const complete = (c: SearchCategory) => `(select ${c} from n) between 1 and ${EXACT_COUNT_LIMIT}`;
    // Each category's candidates, with its place among the categories (rank()'s tie-break).
    const best = categories.map((c, i) => {
      const s = SOURCES[c];
      if (ordering === '-date_published') {
        return db.raw(`select ?::text as category, ${i} as ord, m.id, 0::real as score, m.date::timestamptz as date from ${matches(c)} m where ${complete(c)} order by m.date desc, m.id desc limit ?`, [c, v.wanted]);
      }
      return db.raw(
        `select ?::text as category, ${i} as ord, p.id, p.score, p.date::timestamptz as date from (
           select ${s.alias}.id, ts_rank_cd(${s.alias}.search, ?)::real as score, ${s.date} as date from ${s.table} ${s.alias}
           where ${s.alias}.ctid = any(array(select row from ${matches(c)} order by date desc, id desc limit ?))
           order by score desc, date desc, ${s.alias}.id desc limit ?
         ) p where ${complete(c)}`,
        [c, query, v.pool, v.wanted],
      );
    });
    const candidates = db.raw(`cand as materialized (${best.map(() => '(?)').join(' union all ')})`, best);
    const parts = [
      ...categories.map((c) => db.raw(`select 'n' as kind, ?::text as category, null::integer as id, n.${c}::real as score, null::timestamptz as date, null::text as typed, null::text as word, null::text as json from n`, [c])),
      db.raw(`select 'c', category, id, score, date, null, null, null from cand`),
    ];
    if (withWords) parts.push(db.raw(`select 'w', null, null, w.sml, null, w.typed, w.word, null from (?) as w where (select articles from n) = 0`, [correctionCandidatesSql(db, v.words)]));
    const withs = [...ctes, counts, candidates];
    if (load) {
      // The page as rank() orders the candidates: score, then date to the millisecond (as
      // JavaScript has it), then id, then the category's place.
      withs.push(db.raw(`page as materialized (select category, id from cand order by score desc, date_trunc('milliseconds', date) desc, id desc, ord limit ? offset ?)`, [v.pageSize, v.offset]));
      for (const c of categories) {
        const rows = load.query(c, db.raw(`array(select id from page where category = ?)`, [c]), query, v.now);
        parts.push(db.raw(`select 'h', ?::text, null, null, null, null, null, row_to_json(h)::text from (?) as h`, [c, rows]));
      }
    }
    return db.raw(`with ${withs.map(() => '?').join(', ')} ${parts.map(() => '(?)').join(' union all ')}`, [...withs, ...parts]);
  });
  const { rows } = (await statement) as { rows: FullTextRow[] };
  const counted = emptyCounts();
  const found: Candidate[] = [];
  const corrections: CorrectionCandidate[] = [];
  const loaded: LoadedRow[] = [];
  for (const r of rows) {
    if (r.kind === 'n') counted[r.category] = Number(r.score);
    else if (r.kind === 'c') found.push({ category: r.category, id: r.id, score: Number(r.score), date: new Date(r.date).getTime() });
    else if (r.kind === 'w') corrections.push({ typed: r.typed, word: r.word, sml: r.score });
    else loaded.push({ category: r.category, row: JSON.parse(r.json) as Record<string, unknown> });
  }
  const large = categories.filter((c) => counted[c] > EXACT_COUNT_LIMIT);
  if (large.length) {
    // The estimates first: with the tables' sizes they choose how each category's pool is found.
    const [estimates, tables] = await Promise.all([Promise.all(large.map((c) => plannedRows(db, matching(db, tsq, c, now).select(db.raw('1'))))), searchTables(db)]);
    large.forEach((c, i) => (counted[c] = Math.max(estimates[i], EXACT_COUNT_LIMIT + 1)));
    const parts = large.map((c) => bestMatches(db, tsq, c, ordering, now, wanted, poolPath(counted[c], tables[c])).select(db.raw('? as category', [c])));
    const more = await unionAll(db, parts);
    found.push(...more.map((r) => candidate(r, ordering)));
  }
  return { counted, estimated: large.length > 0, found, corrections, loaded };
}

/**
 * Each category's table (SearchTable), read once for all categories and kept like the
 * rankings (count-cache.ts): they barely move, and every search of a very common word needs them.
 */
export function searchTables(db: Db): Promise<Record<SearchCategory, SearchTable>> {
  return cachedValue(
    db,
    'search\u0000tables',
    async () => {
      const tables = SEARCH_CATEGORIES.map((c) => SOURCES[c].table);
      const { rows } = (await db.raw(
        `select coalesce((select reltuples from pg_class where oid = to_regclass(t)), 0)::float8 as n,
                exists (select 1 from pg_index i join pg_class x on x.oid = i.indexrelid join pg_am am on am.oid = x.relam
                        where i.indrelid = to_regclass(t) and am.amname = 'rum') as rum
           from unnest(?::text[]) with ordinality as u(t, i) order by i`,
        [tables],
      )) as { rows: Array<{ n: number; rum: boolean }> };
      return Object.fromEntries(SEARCH_CATEGORIES.map((c, i) => [c, { rows: Math.max(0, Number(rows[i].n)), rum: rows[i].rum === true }])) as Record<SearchCategory, SearchTable>;
    },
    { keep: () => true },
  );
}

/** The planner's estimate of how many rows a query answers (EXPLAIN, nothing is run). */
async function plannedRows(db: Db, qb: Knex.QueryBuilder): Promise<number> {
  const { sql, bindings } = qb.toSQL();
  const result = await db.raw(`explain (format json) ${sql}`, bindings as readonly Knex.RawBinding[]);
  const plan = (result as { rows: Array<{ 'QUERY PLAN': unknown }> }).rows[0]['QUERY PLAN'];
  const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as Array<{ Plan: { 'Plan Rows': number } }>;
  return Math.round(parsed[0].Plan['Plan Rows']);
}

type CandidateRow = { category: SearchCategory; id: number; score: number | string; date: Date | string };

// By date, every similar name is as good as another.
const candidate = (r: CandidateRow, ordering: SearchOrdering): Candidate => ({
  category: r.category,
  id: r.id,
  score: ordering === '-date_published' ? 0 : Number(r.score),
  date: new Date(r.date).getTime(),
});

/** The TYPO_LIMIT most recent visible headlines with every corrected word, scored by the correction. */
function headlinesQuery(db: Knex, correction: Correction, now: Date): Knex.QueryBuilder {
  const s = SOURCES.articles;
  const qb = db(`${s.table} as ${s.alias}`);
  s.visible(qb, now);
  return headlinesWithWords(qb, s.alias, correction.words)
    .select(db.raw(`'articles' as category`), `${s.alias}.id`, db.raw('?::real as score', [correction.score]), `${s.date} as date`)
    .orderBy(s.date, 'desc')
    .orderBy(`${s.alias}.id`, 'desc')
    .limit(TYPO_LIMIT);
}

async function headlines(db: Db, correction: Correction, now: Date): Promise<CandidateRow[]> {
  return (await headlinesQuery(db, correction, now)) as CandidateRow[];
}

/**
 * Typo tolerance: per category of TYPO_CATEGORIES, the TYPO_LIMIT names most similar to the
 * query, and the TYPO_LIMIT most recent headlines with the query's words corrected (one
 * statement for all of them); the count of a category is how many of those it has. `known`: the correction candidates the
 * full-text statement already found.
 */
async function similarNames(db: Db, plain: string, categories: readonly SearchCategory[], ordering: SearchOrdering, now: Date, known?: CorrectionCandidate[]) {
  const counted = emptyCounts();
  const searched = categories.filter((c) => TYPO_CATEGORIES.includes(c));
  const wantHeadlines = categories.includes('articles');
  if (searched.length === 0 && !wantHeadlines) return { counted, found: [] as Candidate[], corrected: null };
  const words = queryWords(plain);
  const correction = !wantHeadlines ? null : known ? chooseCorrection(words, known) : await correctWords(db, words);
  const corrected = correction?.changed ? correction : null;
  // Names need a threshold setting, for their transaction only; headlines alone need none.
  const rows = !searched.length
    ? corrected
      ? await headlines(db, corrected, now)
      : []
    : await db.transaction(async (trx) => {
        await trx.raw(`select set_config('pg_trgm.word_similarity_threshold', ?, true)`, [String(TYPO_SIMILARITY)]);
        const parts = searched.map((c) => {
          const s = SOURCES[c];
          const name = `lower(${s.name})`;
          const qb = trx(`${s.table} as ${s.alias}`);
          s.visible(qb, now);
          // Stop words ('their', 'then') are spelt right, and the trigrams of a short one are
          // in thousands of names ('then' is as similar to every "The ..." as a typo would
          // be): a query of nothing else is not matched by similarity (30 ms a search, and
          // a list of names that merely start with "The"). Decided in the statement, by
          // the same dictionary full text uses.
          return qb
            .whereRaw(`numnode(plainto_tsquery('english', ?)) > 0`, [plain])
            .whereRaw(`? <% ${name}`, [plain])
            .select(trx.raw('? as category', [c]), `${s.alias}.id`, trx.raw(`word_similarity(?, ${name}) as score`, [plain]), `${s.date} as date`)
            .orderBy('score', 'desc')
            .orderBy(s.date, 'desc')
            .orderBy(`${s.alias}.id`, 'desc')
            .limit(TYPO_LIMIT);
        });
        if (corrected) parts.push(headlinesQuery(trx, corrected, now));
        return unionAll(trx, parts);
      });
  const found = rows.map((r) => {
    counted[r.category] += 1;
    return candidate(r, ordering);
  });
  return { counted, found, corrected: corrected ? corrected.words.join(' ') : null };
}

/** One round trip for one list per category: each part keeps its own order and limit. */
async function unionAll(db: Knex | Knex.Transaction, parts: Knex.QueryBuilder[]): Promise<CandidateRow[]> {
  const result = await db.raw(parts.map(() => '(?)').join(' union all '), parts);
  return (result as { rows: CandidateRow[] }).rows;
}
