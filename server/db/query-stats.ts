import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import type { Db } from './index';

// How many queries a unit of work (one HTTP request) ran and how long the database took to
// answer them. The unit runs inside `measureQueries`; knex's query events, which fire in the
// async context of the code that issued the query, add to that unit's counters only, so
// concurrent requests never count each other's queries. A query issued outside any unit (a
// background job, a cache load started by another request) counts nowhere.
//
// Time is the sum, over the unit's queries, of sent-to-answered (after a pooled connection
// was acquired): parallel queries each add their own time. Waiting for a pool slot is not
// database time.

export interface QueryStats {
  /** Queries sent (each statement knex runs, including BEGIN/COMMIT of a transaction). */
  queries: number;
  /** Milliseconds the answered and failed queries took, summed. */
  ms: number;
}

interface Unit extends QueryStats {
  /** Start of each query in flight, by knex's query uid. */
  open: Map<string, number>;
}

const units = new AsyncLocalStorage<Unit>();
const tracked = new WeakSet<Db>();

interface QueryEvent {
  __knexQueryUid?: string;
}

function started(q: QueryEvent): void {
  const unit = units.getStore();
  if (!unit) return;
  unit.queries += 1;
  if (q.__knexQueryUid) unit.open.set(q.__knexQueryUid, performance.now());
}

function ended(q: QueryEvent | undefined): void {
  const unit = units.getStore();
  const uid = q?.__knexQueryUid;
  if (!unit || !uid) return;
  const t0 = unit.open.get(uid);
  if (t0 === undefined) return;
  unit.open.delete(uid);
  unit.ms += performance.now() - t0;
}

/** Listens to db's query events (once per knex instance, however often it is called). */
export function trackQueries(db: Db): void {
  if (tracked.has(db)) return;
  tracked.add(db);
  db.on('query', started);
  db.on('query-response', (_response: unknown, q: QueryEvent) => ended(q));
  db.on('query-error', (_err: unknown, q: QueryEvent) => ended(q));
}

/** Runs fn as a unit of its own; its stats (live: read them when fn's work is done) are returned beside. */
export function measureQueries<T>(fn: (stats: QueryStats) => T): T {
  const unit: Unit = { queries: 0, ms: 0, open: new Map() };
  return units.run(unit, fn, unit);
}

/** The stats of the unit the caller runs in, if any. */
export function currentQueryStats(): QueryStats | undefined {
  return units.getStore();
}
