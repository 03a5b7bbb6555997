import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

// Site search's statements are long (a few dozen subqueries) and run for every search that
// no cache answers. Two costs are spared:
// - building them: knex assembled and compiled some thirty builders for each search (0.35 ms
//   of CPU). A statement is built once per shape (what decides its SQL: the categories, the
//   ordering, the kind of query ...) with stand-ins for its values, and each search only
//   binds its values to the compiled SQL;
// - parsing and planning them: as named (prepared) statements, named by their SQL,
//   PostgreSQL parses each once per connection, and after five executions plans it once for
//   good when its generic plan costs no more than the custom ones (node-postgres sends the
//   name; PGlite ignores it). A statement is only worth naming when its generic plan is good
//   for every value it may be given: ranking-queries.ts keeps the planner from reading a date index
//   for a visibility filter, which a generic plan would do (6 ms instead of 0.1 ms). Named,
//   the ranking and page statements cost 1.7 ms of database CPU per search instead of 2.8
//   (20 concurrent searches of rare words).

/** What knex sends for a value (the stand-ins are strings; values may be anything knex binds). */
export type StatementValues = Record<string, unknown>;

interface Compiled {
  sql: string;
  name: string;
  /** Each binding: a constant of the shape, or read from the values. */
  bindings: Array<(values: StatementValues) => unknown>;
}

/** Stand-ins are a value's name between two of these (a private-use character no constant has). */
const MARK = '\uE0FF';
const STAND_IN = /\uE0FF([^\uE0FF]+)\uE0FF/g;
/** Shapes kept per cache: a few dozen occur (categories x orderings x kinds of query). */
const MAX_SHAPES = 500;

function compile<V extends StatementValues>(keys: string[], build: (values: V) => Knex.Raw): Compiled {
  const standIns = Object.fromEntries(keys.map((k) => [k, `${MARK}${k}${MARK}`])) as V;
  const { sql, bindings } = build(standIns).toSQL();
  // build() must only hand its values to knex: one in the SQL text itself would be frozen there.
  if (sql.includes(MARK)) throw new Error('A statement value was written into its SQL, not bound');
  return {
    sql,
    name: `search-${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`,
    bindings: (bindings as unknown[]).map((b) => {
      if (typeof b !== 'string' || !b.includes(MARK)) return () => b;
      const whole = /^\uE0FF([^\uE0FF]+)\uE0FF$/.exec(b);
      // A value bound as it is, or inside a string (a prefix 'word' bound as 'word:*').
      if (whole) return (values) => values[whole[1]];
      return (values) => b.replace(STAND_IN, (_, k: string) => String(values[k]));
    }),
  };
}

export type StatementCache = ReturnType<typeof createStatementCache>;

/**
 * Compiled statements by shape. The search service keeps one (service.ts), so that the API
 * and the search page compile a shape once between them; the SQL of a shape depends only on
 * the database's dialect, which the app's databases share.
 */
export function createStatementCache() {
  const shapes = new Map<string, Compiled>();
  return {
    /**
     * The statement `build` makes from `values`, as a named statement, built and compiled once
     * per `shape`: `shape` must name everything that changes the SQL, and `build` may only pass
     * the values to knex as bindings (it is called with stand-ins for them, once).
     */
    prepared<V extends StatementValues>(db: Knex, shape: string, values: V, build: (values: V) => Knex.Raw): Knex.Raw {
      let statement = shapes.get(shape);
      if (!statement) {
        statement = compile(Object.keys(values), build);
        if (shapes.size < MAX_SHAPES) shapes.set(shape, statement);
      }
      return db.raw(statement.sql, statement.bindings.map((b) => b(values)) as readonly Knex.RawBinding[]).options({ name: statement.name });
    },
  };
}
