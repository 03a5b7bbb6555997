import type { Knex } from 'knex';
import type { Db } from '../../db';
import { queryForm, type ParsedQuery } from './query-text';
import { tsQuerySql } from './queries';
import { SEARCH_CATEGORIES, SOURCES, type SearchCategory } from './source-queries';
import type { SearchOrdering } from './params';
import type { StatementCache } from './named-statement-queries';
import { cachedValue } from '../../db/count-cache';
import { correctionCandidatesSql, correctionSql, queryWords } from './typo-queries';

// Site search's ranking (service.ts says what it answers): the counts per category and the
// best candidates of all categories, by full text or else by similar names.
//
// A search no cache answers is one statement (ranking below; issue 41): the full-text counts,
// each category's candidates (only where its count is not 0), a category with more than
// EXACT_COUNT_LIMIT matches included (its estimate and its pool); when no headline matches,
// the query's words corrected for headlines (typo-queries.ts) and the headlines with them;
// when full text finds nothing, the names most similar to the query; and the rows of the page
// shown, highlighted by the typed words and the corrected ones.

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
 * A page of results to load in the ranking's statement: from `offset` on, as rank() orders
 * all the candidates; `query` loads category c's rows whose ids are in `ids` (SQL for an integer array),
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
 * names and corrected headlines; with `load`, also the rows of the page from `load.offset`
 * on. All in one statement (ranking). `statements`: the search service's compiled statements.
 */
export async function rank(
  db: Db,
  statements: StatementCache,
  parsed: ParsedQuery,
  categories: readonly SearchCategory[],
  ordering: SearchOrdering,
  wanted: number,
  now: Date,
  load?: PageLoad,
): Promise<{ ranked: Ranked | null; loaded: LoadedRow[] }> {
  // The words headlines are corrected by (when no headline matches them as typed).
  const typo = parsed.plain.length >= 3;
  const words = typo && categories.includes('articles') ? queryWords(parsed.plain) : [];
  const { counted, estimated, found, match, corrected, loaded } = await ranking(db, statements, parsed, categories, ordering, now, wanted, words, typo, load);
  if (sum(counted) === 0) return { ranked: null, loaded: [] };
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

/** Category c's visible matches, most recent first, up to `limit`, with `columns`; the planner finds them as it sees fit (for a common word: a walk down the date index). */
function walkByDate(db: Knex, tsq: Knex.Raw, c: SearchCategory, now: Date, columns: Array<string | Knex.Raw>, limit: Knex.Value): Knex.Raw {
  const s = SOURCES[c];
  const qb = matching(db, tsq, c, now).select(columns).orderBy(s.date, 'desc').orderBy(`${s.alias}.id`, 'desc');
  return db.raw('? limit ?', [qb, limit]);
}

/** The best `wanted` of a pool (id, date and search of its rows): ts_rank_cd, then date, then id. */
function rankPool(db: Knex, tsq: Knex.Raw, pool: Knex.Raw, wanted: Knex.Value): Knex.Raw {
  return db.raw(`select p.id, ts_rank_cd(p.search, ?) as score, p.date from (?) as p order by score desc, p.date desc, p.id desc limit ?`, [tsq, pool, wanted]);
}

/**
 * A category's best `wanted` full-text matches of a word found in more than EXACT_COUNT_LIMIT
 * of its rows: id, score (higher first) and date. `pool`: how relevancy's pool is found
 * (poolPath): a walk down the date index, all the matches, or the RUM index (only where the
 * table has one).
 */
export function bestMatches(db: Knex, tsq: Knex.Raw, c: SearchCategory, ordering: SearchOrdering, now: Date, wanted: number, pool: PoolPath = 'walk'): Knex.QueryBuilder {
  return db
    .select('b.*')
    .from(db.raw('(?) as b', [bestMatchesSql(db, tsq, c, ordering, now, wanted, pool, Math.max(RELEVANCY_POOL, wanted))]))
    .orderBy([{ column: 'b.score', order: 'desc' }, { column: 'b.date', order: 'desc' }, { column: 'b.id', order: 'desc' }]);
}

/** bestMatches as SQL, `wanted` and the pool's size given (either may be a statement's stand-in). */
function bestMatchesSql(db: Knex, tsq: Knex.Raw, c: SearchCategory, ordering: SearchOrdering, now: Date, wanted: Knex.Value, pool: PoolPath, poolSize: Knex.Value): Knex.Raw {
  const s = SOURCES[c];
  if (ordering === '-date_published') return db.raw(`select w.id, 0::real as score, w.date from (?) as w`, [walkByDate(db, tsq, c, now, [`${s.alias}.id`, db.raw(`${s.date} as date`)], wanted)]);
  if (pool === 'matches') return recentMatchesRanked(db, tsq, c, now, wanted, poolSize);
  // Relevancy ranks the RELEVANCY_POOL most recent matches, then keeps the best `wanted`. The
  // pool carries only what the score needs: the id, the date and the tsvector.
  const columns = [`${s.alias}.id`, db.raw(`${s.date} as date`), `${s.alias}.search`];
  if (pool === 'walk') return rankPool(db, tsq, walkByDate(db, tsq, c, now, columns, poolSize), wanted);
  // RUM orders by distance from now (<=|: dates up to now, the nearest first), which is the
  // date descending; rows published at the same instant come in the index's order, not by id,
  // and a row dated after now (only listings have no such filter, and none is) comes last.
  const recent = matching(db, tsq, c, now).select(columns).orderByRaw(`${s.date} <=| ?::timestamptz`, [now]);
  return rankPool(db, tsq, db.raw('? limit ?', [recent, poolSize]), wanted);
}

/**
 * bestMatches' relevancy pool taken from all the matches: the GIN index finds them, only
 * their row address, id and date are kept, and the tsvectors of the RELEVANCY_POOL most
 * recent are read by row address for the score (as the full-text statement does for a
 * category it counted whole).
 */
function recentMatchesRanked(db: Knex, tsq: Knex.Raw, c: SearchCategory, now: Date, wanted: Knex.Value, poolSize: Knex.Value): Knex.Raw {
  const s = SOURCES[c];
  const pool = matchingByWords(db, tsq, c, now).select(`${s.alias}.row`).orderBy(s.date, 'desc').orderBy(`${s.alias}.id`, 'desc');
  return db.raw(
    `select ${s.alias}.id, ts_rank_cd(${s.alias}.search, ?) as score, ${s.date} as date from ${s.table} as ${s.alias}
      where ${s.alias}.ctid = any(array(? limit ?)) order by score desc, date desc, ${s.alias}.id desc limit ?`,
    [tsq, pool, poolSize, wanted],
  );
}

/**
 * SQL for the search functions (migrations/20261201000900_search_planned_rows.ts), constants of
 * the statement's shape with the words as $1 and the time as $2: category c's visible matches
 * (search_planned_rows' estimate of their number is a very common word's count), and its best
 * `wanted` ($4) from a pool of $3 found by `path` (search_pool_rows), planned for the words.
 */
function plannedMatchesSql(db: Knex, c: SearchCategory): string {
  return textLiteral(
    matching(db, db.raw('$1'), c, db.raw('$2::timestamptz') as unknown as Date)
      .select(db.raw('1'))
      .toString(),
  );
}
function poolRowsSql(db: Knex, c: SearchCategory, ordering: SearchOrdering, path: PoolPath): string {
  const best = bestMatchesSql(db, db.raw('$1'), c, ordering, db.raw('$2::timestamptz') as unknown as Date, db.raw('$4'), path, db.raw('$3'));
  return textLiteral(db.raw('select b.id::integer, b.score::real, b.date::timestamptz from (?) as b', [best]).toString());
}
/**
 * SQL text as a literal of the statement's own text: a constant of its shape, so not a value
 * bound (and sent) with every search. A "?" would be read by knex as a binding.
 */
function textLiteral(sql: string): string {
  if (sql.includes('?')) throw new Error('A search function\'s SQL may not contain "?"');
  return `'${sql.replace(/'/g, "''")}'`;
}

/**
 * SQL for search_similar_rows (migrations/20261202000100_search_similar_rows.ts), a constant of
 * the statement's shape: category c's TYPO_LIMIT visible names most similar to the query ($1)
 * by word similarity at the threshold the function sets, at the time $2. Stop words ('their',
 * 'then') are spelt right, and the trigrams of a short one are in thousands of names ('then'
 * is as similar to every "The ..." as a typo would be): a query of nothing else is not matched
 * by similarity (30 ms a search, and a list of names that merely start with "The"), decided by
 * the dictionary full text uses.
 */
function similarNamesSql(db: Knex, c: SearchCategory): string {
  const s = SOURCES[c];
  const name = `lower(${s.name})`;
  const qb = db(`${s.table} as ${s.alias}`);
  s.visible(qb, db.raw('$2::timestamptz') as unknown as Date);
  const rows = qb
    .whereRaw(`numnode(plainto_tsquery('english', $1)) > 0`)
    .whereRaw(`$1 <% ${name}`)
    .select(`${s.alias}.id`, db.raw(`word_similarity($1, ${name}) as score`), db.raw(`${s.date} as date`))
    .orderBy('score', 'desc')
    .orderBy(s.date, 'desc')
    .orderBy(`${s.alias}.id`, 'desc')
    .limit(TYPO_LIMIT);
  return textLiteral(db.raw('select b.id::integer, b.score::real, b.date::timestamptz from (?) as b', [rows]).toString());
}

/**
 * SQL for search_pool_rows: the TYPO_LIMIT most recent visible headlines with every corrected
 * word ($1, a 'simple' tsquery) at the time $2, planned for the words (the migration of
 * headline_words says why: a word in 7 headlines, planned blind, walked 100,000 by date).
 */
function correctedHeadlinesSql(db: Knex): string {
  const s = SOURCES.articles;
  const qb = db(`${s.table} as ${s.alias}`);
  s.visible(qb, db.raw('$2::timestamptz') as unknown as Date);
  const rows = qb
    .whereRaw(`${s.alias}.headline_words @@ $1`)
    .select(`${s.alias}.id`, db.raw(`${s.date} as date`))
    .orderBy(s.date, 'desc')
    .orderBy(`${s.alias}.id`, 'desc')
    .limit(TYPO_LIMIT);
  return textLiteral(db.raw('select b.id::integer, 0::real, b.date::timestamptz from (?) as b', [rows]).toString());
}

/** One row of the ranking statement: a full-text count ('n'), a candidate ('c'), the corrected words ('x') or a row of the page ('h'). */
type RankingRow = { kind: 'n' | 'c' | 'x' | 'h'; category: SearchCategory; id: number; score: number | string; date: Date | string; text: string; estimated: boolean | null };

/**
 * The ranking, in one (named) statement. Per category, the matches are read once
 * (the GIN index), at most EXACT_COUNT_LIMIT + 1 of them, with their row address, id and date:
 * their number is the count, and when that is all of them (and not none) the candidates come
 * from them: the pool is the most recent of them, whose tsvectors are read by row address for
 * the score. A category with more matches than that is counted by the planner's estimate
 * (search_planned_rows: the statistics of the tsvector column; the answer says it is an
 * estimate), and its candidates come from a pool found the way poolPath chooses from that
 * estimate and the table's size (bestMatches, run by search_pool_rows so that it is planned
 * for the words, as the statement's generic plan is not); those parts are behind a condition
 * the executor tests once (an init plan), so a rarer word runs none of them.
 *
 * With `typo` (a query of 3 characters or more), the typo paths are parts of it too, each
 * behind such a condition: when no headline matches and there are `words`, they are corrected
 * (correctionSql) and the TYPO_LIMIT most recent headlines with the corrected words are
 * candidates; when full text finds nothing at all, so are the TYPO_LIMIT names most similar
 * to the query in each category of TYPO_CATEGORIES (search_similar_rows), and each category's
 * count is how many it has. With `load`, all candidates are merged as rank() merges them and
 * the page's rows are loaded (row_to_json, as each domain's query answers them), highlighted
 * by the typed words and the corrected ones.
 */
async function ranking(db: Db, statements: StatementCache, parsed: ParsedQuery, categories: readonly SearchCategory[], ordering: SearchOrdering, now: Date, wanted: number, words: string[], typo: boolean, load?: PageLoad) {
  const withWords = words.length > 0 && categories.includes('articles');
  const names = typo ? categories.filter((c) => TYPO_CATEGORIES.includes(c)) : [];
  const form = queryForm(parsed);
  const offset = load?.offset ?? 0;
  // Whether a table has a RUM index decides the SQL (the operator exists only with it): kept, not read per search.
  const tables = ordering === 'relevancy' ? await searchTables(db) : null;
  const rum = categories.filter((c) => tables?.[c].rum);
  const values = { web: parsed.web, prefix: parsed.prefix ?? '', plain: parsed.plain, now, words, wanted, pool: Math.max(RELEVANCY_POOL, wanted), offset, pageSize: wanted - offset };
  const shape = JSON.stringify(['ranking', categories, ordering, form, withWords, names, Boolean(load), rum]);
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
    // Candidates from the matches read only where they are all there are, and there are some.
    const complete = (c: SearchCategory) => `(select ${c} from n) between 1 and ${EXACT_COUNT_LIMIT}`;
    // The planner's estimate where there are more (null elsewhere), at least EXACT_COUNT_LIMIT + 1.
    const estimates = db.raw(
      `e as materialized (select ${categories.map((c) => `case when (select ${c} from n) > ${EXACT_COUNT_LIMIT} then greatest(round(search_planned_rows(${plannedMatchesSql(db, c)}, ?, ?)), ${EXACT_COUNT_LIMIT + 1}) end as ${c}`).join(', ')})`,
      categories.flatMap(() => [query, v.now]),
    );
    // How each such category's pool is found (poolPath, in SQL): by the estimate and the table's rows.
    const paths = db.raw(
      `pp as materialized (select ${categories
        .map((c) => {
          const est = `(select ${c} from e)::float8`;
          const rows = `greatest(coalesce((select reltuples from pg_class where oid = to_regclass('${SOURCES[c].table}')), 0), 0)::float8`;
          const path = rum.includes(c) ? `case when ${est} * ${est} <= ${RUM_CROSSOVER} * ${rows} then 'rum' else 'walk' end` : `case when 2 * ${est} * ${est} <= ${RELEVANCY_POOL} * ${rows} then 'matches' else 'walk' end`;
          return `${path} as ${c}`;
        })
        .join(', ')})`,
    );
    // Each category's candidates, with its place among the categories (rank()'s tie-break).
    const head = (i: number) => `select ?::text as category, ${i} as ord, b.id, b.score::real as score, b.date::timestamptz as date from`;
    const best = categories.flatMap((c, i) => {
      const s = SOURCES[c];
      const fromMatches =
        ordering === '-date_published'
          ? db.raw(`select m.id, 0 as score, m.date from ${matches(c)} m order by m.date desc, m.id desc limit ?`, [v.wanted])
          : db.raw(
              `select ${s.alias}.id, ts_rank_cd(${s.alias}.search, ?) as score, ${s.date} as date from ${s.table} ${s.alias}
                where ${s.alias}.ctid = any(array(select row from ${matches(c)} order by date desc, id desc limit ?))
                order by score desc, date desc, ${s.alias}.id desc limit ?`,
              [query, v.pool, v.wanted],
            );
      // More matches than counted: the pool by the path chosen, in a query planned for the words.
      const paths: PoolPath[] = ordering === '-date_published' ? ['walk'] : rum.includes(c) ? ['rum', 'walk'] : ['matches', 'walk'];
      const pooled = paths.length === 1 ? poolRowsSql(db, c, ordering, paths[0]) : `case (select ${c} from pp) when '${paths[0]}' then ${poolRowsSql(db, c, ordering, paths[0])} else ${poolRowsSql(db, c, ordering, paths[1])} end`;
      const large = db.raw(`${head(i)} search_pool_rows(${pooled}, ?, ?, ?, ?) as b where (select ${c} from e) is not null`, [c, query, v.now, v.pool, v.wanted]);
      return [db.raw(`${head(i)} (?) as b where ${complete(c)}`, [c, fromMatches]), large];
    });
    // Headlines found by corrected words come after every category in rank()'s tie-break (they
    // were added last); by date, every similar name and corrected headline is as good as another.
    const typoScore = (score: string) => (ordering === '-date_published' ? '0::real' : score);
    const nothingFound = `(select ${categories.map((c) => `n.${c}`).join(' + ')} from n) = 0`;
    const typos: Knex.Raw[] = [];
    const withs = [...ctes, counts, estimates, ...(ordering === 'relevancy' ? [paths] : [])];
    if (withWords) {
      withs.push(db.raw(`w as materialized (select * from (?) as w where (select articles from n) = 0)`, [correctionCandidatesSql(db, v.words)]));
      withs.push(db.raw(`corr as materialized (?)`, [correctionSql(db, 'w', v.words)]));
      typos.push(
        db.raw(
          `select 'articles'::text as category, ${categories.length} as ord, b.id, ${typoScore('(select score from corr)')} as score, b.date from
             search_pool_rows(${correctedHeadlinesSql(db)}, (select to_tsquery('simple', replace(corrected, ' ', ' & ')) from corr), ?, 0, ${TYPO_LIMIT}) as b
           where (select corrected from corr) is not null`,
          [v.now],
        ),
      );
    }
    for (const c of names) {
      const i = categories.indexOf(c);
      typos.push(
        db.raw(`select ?::text as category, ${i} as ord, b.id, ${typoScore('b.score')} as score, b.date from search_similar_rows(${similarNamesSql(db, c)}, ?, ?, ${TYPO_SIMILARITY}, ${TYPO_LIMIT}) as b where ${nothingFound}`, [c, v.plain, v.now]),
      );
    }
    const all = [...best, ...typos];
    withs.push(db.raw(`cand as materialized (${all.map(() => '(?)').join(' union all ')})`, all));
    const parts = [
      ...categories.map((c) =>
        db.raw(`select 'n' as kind, ?::text as category, null::integer as id, coalesce(e.${c}, n.${c})::real as score, null::timestamptz as date, null::text as text, e.${c} is not null as estimated from n, e`, [c]),
      ),
      db.raw(`select 'c', category, id, score, date, null, null from cand`),
    ];
    if (withWords) parts.push(db.raw(`select 'x', null, null, null, null, corrected, null from corr where corrected is not null`));
    if (load) {
      // The page as rank() orders the candidates: score, then date to the millisecond (as
      // JavaScript has it), then id, then the category's place.
      withs.push(db.raw(`page as materialized (select category, id from cand order by score desc, date_trunc('milliseconds', date) desc, id desc, ord limit ? offset ?)`, [v.pageSize, v.offset]));
      // Highlighted by the words typed, and by the words they were corrected to (similar
      // matches: the typed ones are in no text).
      const highlight = withWords ? db.raw(`(select case when corrected is null then ? else ? || plainto_tsquery('english', corrected) end from corr)`, [query, query]) : query;
      for (const c of categories) {
        const rows = load.query(c, db.raw(`array(select id from page where category = ?)`, [c]), highlight, v.now);
        parts.push(db.raw(`select 'h', ?::text, null, null, null, row_to_json(h)::text, null from (?) as h`, [c, rows]));
      }
    }
    return db.raw(`with ${withs.map(() => '?').join(', ')} ${parts.map(() => '(?)').join(' union all ')}`, [...withs, ...parts]);
  });
  const { rows } = (await statement) as { rows: RankingRow[] };
  const counted = emptyCounts();
  let estimated = false;
  const found: Candidate[] = [];
  let corrected: string | null = null;
  const loaded: LoadedRow[] = [];
  for (const r of rows) {
    if (r.kind === 'n') {
      counted[r.category] = Number(r.score);
      estimated ||= r.estimated === true;
    } else if (r.kind === 'c') found.push({ category: r.category, id: r.id, score: Number(r.score), date: new Date(r.date).getTime() });
    else if (r.kind === 'x') corrected = r.text;
    else loaded.push({ category: r.category, row: JSON.parse(r.text) as Record<string, unknown> });
  }
  // Full text found nothing: the similar names and corrected headlines are the answer, each
  // category counted by its candidates. Else corrected headlines are the articles' count.
  const match: Ranked['match'] = sum(counted) === 0 ? 'similar' : 'fulltext';
  if (match === 'similar') for (const f of found) counted[f.category] += 1;
  else if (corrected !== null) counted.articles = found.filter((f) => f.category === 'articles').length;
  return { counted, estimated, found, match, corrected, loaded };
}

/**
 * Each category's table (SearchTable), read once for all categories and kept like the
 * rankings (count-cache.ts): they barely move, and every search by relevancy needs them (a
 * RUM index changes its statement).
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

