import { performance } from 'node:perf_hooks';
import type { Db } from './index';
import { currentRequestScope, type Logger } from '../logger';

// Every query's time, for the figures (a histogram, server/http/metrics.ts) and the log: a
// query slower than SLOW_QUERY_MS is a warning naming the route that ran it (its template, from
// the request scope) and its SQL, never its values. Time is sent-to-answered, as query-stats.ts
// counts it for Server-Timing, from knex's query events on the primary's instance: the
// replica's reader sends its events there too (replica.ts), so each query is timed once.
// Statements pg-boss runs on a pooled connection of its own (jobs/queue.ts) are not knex's
// queries and are not timed.

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

/** The SQL a warning quotes: its start, on one line. */
const SQL_QUOTED = 300;
/** Queries whose answer never came (none should) are forgotten beyond this many open. */
const MAX_OPEN = 10_000;

const timed = new WeakMap<Db, QueryTimeOptions>();

/**
 * Times db's queries from now on. Listens once per knex instance: a later call (an app rebuilt
 * on the same database, in tests) only replaces the options.
 */
export function timeQueries(db: Db, opts: QueryTimeOptions): void {
  const listening = timed.has(db);
  timed.set(db, opts);
  if (listening) return;
  const open = new Map<string, number>();
  db.on('query', (q: QueryEvent) => {
    if (!q.__knexQueryUid) return;
    if (open.size >= MAX_OPEN) open.clear();
    open.set(q.__knexQueryUid, performance.now());
  });
  const ended = (q: QueryEvent | undefined) => {
    const uid = q?.__knexQueryUid;
    const t0 = uid === undefined ? undefined : open.get(uid);
    if (t0 === undefined) return;
    open.delete(uid!);
    const ms = performance.now() - t0;
    const { logger, slowMs, observe } = timed.get(db)!;
    const slow = ms >= slowMs;
    observe?.(ms / 1000, slow);
    if (!slow) return;
    const scope = currentRequestScope();
    logger.warn(
      { route: scope?.route() ?? null, ms: Math.round(ms * 10) / 10, sql: String(q?.sql ?? '').replace(/\s+/g, ' ').slice(0, SQL_QUOTED) },
      scope ? 'slow query' : 'slow query (outside a request)',
    );
  };
  db.on('query-response', (_response: unknown, q: QueryEvent) => ended(q));
  db.on('query-error', (_err: unknown, q: QueryEvent) => ended(q));
}
