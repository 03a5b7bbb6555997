import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import type { Db } from './index';
import { currentRequestScope, type Logger } from '../logger';

// Every query's time, measured once, from knex's query events on the primary's instance (the
// replica's reader sends its events there too, replica.ts), and fed to:
// - the unit of work (one HTTP request) that ran it, for its Server-Timing header
//   (http/server-timing.ts; with `trackQueries`): how many queries the unit ran and how long
//   the database took to answer them. The unit runs inside `measureQueries`; the events, which
//   fire in the async context of the code that issued the query, add to that unit's counters
//   only, so concurrent requests never count each other's queries. A query issued outside any
//   unit (a background job, a cache load started by another request) counts nowhere. A unit's
//   time is the sum of its queries' times: parallel queries each add their own.
// - the figures' histogram (http/metrics.ts), only when figures are kept (`timeQueries`'s
//   observe);
// - the log (`timeQueries`): a query slower than SLOW_QUERY_MS is a warning naming the route
//   that ran it (its template, from the request scope) and its SQL, never its values.
// Time is sent-to-answered (after a pooled connection was acquired): waiting for a pool slot is
// not database time. Statements pg-boss runs on a pooled connection of its own (jobs/queue.ts)
// are not knex's queries and are not timed.

export interface QueryStats {
  /** Queries sent (each statement knex runs, including BEGIN/COMMIT of a transaction). */
  queries: number;
  /** Milliseconds the answered and failed queries took, summed. */
  ms: number;
}

export interface QueryTimeOptions {
  logger: Pick<Logger, 'warn'>;
  /** A query that takes this long or longer is logged. */
  slowMs: number;
  /** Each query's time, in seconds (the figures' histogram); none without figures. */
  observe?: (seconds: number, slow: boolean) => void;
}

interface QueryEvent {
  __knexQueryUid?: string;
  sql?: string;
}

/** A query in flight: when it was sent, and the unit it counts in (if any). */
interface Open {
  t0: number;
  unit: QueryStats | undefined;
}

/** What one knex instance's listeners feed. */
interface Listening {
  /** Count into the caller's unit (trackQueries was called). */
  units: boolean;
  /** The figures and the log (timeQueries was called). */
  time: QueryTimeOptions | undefined;
}

/** The SQL a warning quotes: its start, on one line. */
const SQL_QUOTED = 300;
/** Queries whose answer never came (none should) are forgotten beyond this many open. */
const MAX_OPEN = 10_000;

const units = new AsyncLocalStorage<QueryStats>();
const listening = new WeakMap<Db, Listening>();

/** db's one set of listeners (added on the first call for it), and what they feed. */
function listen(db: Db): Listening {
  const known = listening.get(db);
  if (known) return known;
  const feeds: Listening = { units: false, time: undefined };
  listening.set(db, feeds);
  const open = new Map<string, Open>();
  db.on('query', (q: QueryEvent) => {
    const unit = feeds.units ? units.getStore() : undefined;
    if (unit) unit.queries += 1;
    const uid = q.__knexQueryUid;
    if (!uid || (!unit && !feeds.time)) return;
    if (open.size >= MAX_OPEN) open.clear();
    open.set(uid, { t0: performance.now(), unit });
  });
  const ended = (q: QueryEvent | undefined) => {
    const uid = q?.__knexQueryUid;
    const started = uid === undefined ? undefined : open.get(uid);
    if (started === undefined) return;
    open.delete(uid!);
    const ms = performance.now() - started.t0;
    if (started.unit) started.unit.ms += ms;
    const time = feeds.time;
    if (!time) return;
    const slow = ms >= time.slowMs;
    time.observe?.(ms / 1000, slow);
    if (!slow) return;
    const scope = currentRequestScope();
    time.logger.warn(
      { route: scope?.route() ?? null, ms: Math.round(ms * 10) / 10, sql: String(q?.sql ?? '').replace(/\s+/g, ' ').slice(0, SQL_QUOTED) },
      scope ? 'slow query' : 'slow query (outside a request)',
    );
  };
  db.on('query-response', (_response: unknown, q: QueryEvent) => ended(q));
  db.on('query-error', (_err: unknown, q: QueryEvent) => ended(q));
  return feeds;
}

/** Counts db's queries into the units they run in from now on (however often it is called). */
export function trackQueries(db: Db): void {
  listen(db).units = true;
}

/**
 * Times db's queries for the figures and the slow-query log from now on. A later call (an app
 * rebuilt on the same database, in tests) only replaces the options.
 */
export function timeQueries(db: Db, opts: QueryTimeOptions): void {
  listen(db).time = opts;
}

/** Runs fn as a unit of its own; its stats (live: read them when fn's work is done) are returned beside. */
export function measureQueries<T>(fn: (stats: QueryStats) => T): T {
  const unit: QueryStats = { queries: 0, ms: 0 };
  return units.run(unit, fn, unit);
}

/** The stats of the unit the caller runs in, if any. */
export function currentQueryStats(): QueryStats | undefined {
  return units.getStore();
}
