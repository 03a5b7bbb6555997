import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Knex } from 'knex';
import type { AppContext } from '../context';
import type { Logger } from '../logger';
import { cacheTallies } from '../cache/memory-cache';
import type { QueueBacklog } from '../jobs/queue';
import type { ReplicaStatus } from '../db/replica';
import { routeTemplate } from './route-template';

// The figures an operator watches, in Prometheus' text format (prom-client), served by
// metrics-endpoint.ts. Kept only when the config asks for them (METRICS_PORT or
// METRICS_TOKEN); then, per process:
// - requests by route template (route-template.ts: never the URL, so the series are bounded),
//   method and status class, and their latency as a histogram by route;
// - every query's time (db/query-stats.ts) and the slow ones counted;
// - read at each scrape: the database pools (in use, free, waiting), the look-ups of each
//   named cache (cache/memory-cache.ts, by catalogue name), the job queue's backlog and its
//   oldest due job's age (PostgreSQL only), the replica's lag (its monitor's, db/replica.ts),
//   and what apps register with gaugeAtScrape (uploads in flight);
// - prom-client's defaults: event-loop delay, heap, RSS, CPU, handles, GC.
// One registry per process, built on first use: the app a process serves is the one whose
// database, queue and replica are read (a test that builds several reads its latest).

export const METRICS_PREFIX = 'guide_';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Methods counted by name; any other (Node accepts a few dozen) as OTHER. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** A scrape waits this long for the queue's backlog before leaving it out. */
const BACKLOG_TIMEOUT_MS = 2_000;

/** What the scrape reads of the app: its pools, queue and replica. */
type Source = Pick<AppContext, 'db' | 'dbRead' | 'replica' | 'dbKind' | 'jobs'> & { logger: Pick<Logger, 'warn'> };

interface Figures {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  latency: Histogram<'method' | 'route'>;
  queryTime: Histogram;
  slowQueries: Counter;
}

let figures: Figures | null = null;
let source: Source | null = null;
let replicaGauges = false;
const scrapeGauges = new Map<string, { help: string; read: () => number }>();

/**
 * A gauge read at each scrape, for a figure an app keeps (uploads in flight): registered once,
 * at module load, with its full name. Costs nothing while no figures are kept.
 */
export function gaugeAtScrape(name: string, help: string, read: () => number): void {
  if (scrapeGauges.has(name)) return;
  scrapeGauges.set(name, { help, read });
  if (figures) registerScrapeGauge(figures.registry, name);
}

function registerScrapeGauge(registry: Registry, name: string): void {
  const { help, read } = scrapeGauges.get(name)!;
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}

type TarnPool = NonNullable<Knex['client']['pool']>;

function poolsOf(s: Source): Array<[string, Knex]> {
  return s.dbRead === s.db ? [['primary', s.db]] : [['primary', s.db], ['replica', s.dbRead]];
}

function build(): Figures {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const f: Figures = {
    registry,
    requests: new Counter({
      name: `${METRICS_PREFIX}http_requests_total`,
      help: 'HTTP requests answered, by method, route template (unmatched: no route) and status class (aborted: the client left first)',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    latency: new Histogram({
      name: `${METRICS_PREFIX}http_request_duration_seconds`,
      help: 'Time from a request reaching the app to its answer sent, by method and route template',
      labelNames: ['method', 'route'] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    queryTime: new Histogram({
      name: `${METRICS_PREFIX}db_query_duration_seconds`,
      help: "Time each query took, sent to answered (knex's queries on the primary and the replica)",
      buckets: QUERY_BUCKETS,
      registers,
    }),
    slowQueries: new Counter({
      name: `${METRICS_PREFIX}db_slow_queries_total`,
      help: 'Queries at or over SLOW_QUERY_MS (each also logged as a warning with its route)',
      registers,
    }),
  };

  // The pools, primary's and replica's: each gauge sets its samples from each tarn pool.
  const poolGauge = (name: string, help: string, labelNames: readonly string[], read: (pool: string, tarn: TarnPool, set: (labels: Record<string, string>, v: number) => void) => void) =>
    new Gauge({
      name: `${METRICS_PREFIX}${name}`,
      help,
      labelNames,
      registers,
      collect() {
        this.reset();
        for (const [pool, db] of source ? poolsOf(source) : []) if (db.client.pool) read(pool, db.client.pool, (labels, v) => this.set(labels, v));
      },
    });
  poolGauge('db_pool_connections', 'Database connections of the pool, by pool (primary, replica) and state (used: lent to a query or transaction; free: idle)', ['pool', 'state'], (pool, tarn, set) => {
    set({ pool, state: 'used' }, tarn.numUsed());
    set({ pool, state: 'free' }, tarn.numFree());
  });
  poolGauge('db_pool_waiting', 'Requests for a connection waiting for the pool, by pool', ['pool'], (pool, tarn, set) => set({ pool }, tarn.numPendingAcquires()));
  poolGauge('db_pool_max', 'The most connections the pool opens, by pool', ['pool'], (pool, tarn, set) => set({ pool }, tarn.max));

  new Counter({
    name: `${METRICS_PREFIX}cache_lookups_total`,
    help: "Readers' look-ups of the in-process caches, by the cache catalogue's name (docs/performance.md) and result (hit, miss)",
    labelNames: ['cache', 'result'] as const,
    registers,
    collect() {
      this.reset();
      for (const [cache, tally] of cacheTallies()) {
        this.inc({ cache, result: 'hit' }, tally.hits);
        this.inc({ cache, result: 'miss' }, tally.misses);
      }
    },
  });

  // The queue's backlog: one query a scrape for both gauges (their collects start together
  // and share the one in flight).
  let backlog: Promise<QueueBacklog[]> | null = null;
  const readBacklog = (): Promise<QueueBacklog[]> => {
    const s = source;
    if (!s || s.dbKind !== 'postgres') return Promise.resolve([]);
    if (!backlog) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${BACKLOG_TIMEOUT_MS} ms`)), BACKLOG_TIMEOUT_MS)));
      backlog = Promise.race([s.jobs.backlog(), late])
        .catch((err: unknown) => {
          s.logger.warn({ err }, 'metrics: the job queue backlog could not be read; left out of this scrape');
          return [];
        })
        .finally(() => {
          clearTimeout(timer);
          backlog = null;
        });
    }
    return backlog;
  };
  const queueGauge = (name: string, help: string, read: (row: QueueBacklog) => number) =>
    new Gauge({
      name: `${METRICS_PREFIX}${name}`,
      help,
      labelNames: ['queue'] as const,
      registers,
      async collect() {
        const rows = await readBacklog();
        this.reset();
        for (const r of rows) this.set({ queue: r.name }, read(r));
      },
    });
  queueGauge('jobs_queued', 'Jobs due and waiting for a worker (created or retry, start time passed), by queue; PostgreSQL only; the same on every process', (r) => r.due);
  queueGauge('jobs_oldest_queued_age_seconds', 'How long the oldest due job has waited past its start time, by queue (0: none waiting); PostgreSQL only', (r) => r.oldestDueSeconds);

  for (const name of scrapeGauges.keys()) registerScrapeGauge(registry, name);
  return f;
}

/** The replica's figures: registered once a context with a replica is watched (without one, none are printed). */
function registerReplicaGauges(registry: Registry): void {
  const replicaGauge = (name: string, help: string, read: (status: ReplicaStatus) => number) =>
    new Gauge({
      name: `${METRICS_PREFIX}${name}`,
      help,
      registers: [registry],
      collect() {
        const replica = source?.replica;
        if (replica) this.set(read(replica.status()));
      },
    });
  // Lags are NaN while unknown (starting, or down): not 0, which would read as caught up.
  replicaGauge(
    'db_replica_lag_seconds',
    "How long the replica has been short of the primary's oldest position it has not replayed (its monitor's, checked every second); only with DATABASE_REPLICA_URL",
    (s) => s.lagSeconds ?? NaN,
  );
  replicaGauge('db_replica_lag_bytes', 'WAL bytes the replica had not replayed at its last check; only with DATABASE_REPLICA_URL', (s) => s.lagBytes ?? NaN);
  replicaGauge(
    'db_replica_serving',
    'Whether public reads go to the replica (1), or to the primary because it is down, lagging or starting (0); only with DATABASE_REPLICA_URL',
    (s) => (s.state === 'streaming' ? 1 : 0),
  );
}

export interface AppFigures {
  /**
   * Middleware: counts and times each request by route template and status class (plain node
   * types: the server's front, cache-hit-fast-path.ts, counts the answers it sends too).
   */
  countRequests: (req: IncomingMessage & Partial<Pick<Request, 'route' | 'baseUrl'>>, res: ServerResponse, next: () => void) => void;
  /** A query's time (db/query-stats.ts). */
  observeQuery: (seconds: number, slow: boolean) => void;
}

/**
 * The figures, when the config asks for them (METRICS_PORT or METRICS_TOKEN; null otherwise,
 * and nothing is counted): from now on the scrape reads this context's pools, queue and replica.
 */
export function appFigures(ctx: Source & Pick<AppContext, 'config'>): AppFigures | null {
  if (!ctx.config.metrics.port && !ctx.config.metrics.token) return null;
  const f = (figures ??= build());
  source = ctx;
  if (ctx.replica && !replicaGauges) {
    registerReplicaGauges(f.registry);
    replicaGauges = true;
  }
  return {
    countRequests(req, res, next) {
      const started = process.hrtime.bigint();
      const done = () => {
        res.off('finish', done);
        res.off('close', done);
        const method = req.method && METHODS.has(req.method) ? req.method : 'OTHER';
        const route = routeTemplate(req, res);
        const status = res.writableFinished ? `${Math.floor(res.statusCode / 100)}xx` : 'aborted';
        f.requests.inc({ method, route, status });
        f.latency.observe({ method, route }, Number(process.hrtime.bigint() - started) / 1e9);
      };
      res.on('finish', done);
      res.on('close', done);
      next();
    },
    observeQuery(seconds, slow) {
      f.queryTime.observe(seconds);
      if (slow) f.slowQueries.inc();
    },
  };
}

/** The figures in Prometheus' text format (empty of app figures before any app kept them). */
export async function scrapeMetrics(): Promise<{ contentType: string; body: string }> {
  const registry = (figures ??= build()).registry;
  return { contentType: registry.contentType, body: await registry.metrics() };
}
