import type { Knex } from 'knex';
import type PgBoss from 'pg-boss';
import type { Logger } from '../logger';

// The server's job queue (issues 37 and 40): pg-boss 10 on the site's own database, PostgreSQL
// or the embedded PGlite, through knex's connections. A job runs once across any number of
// processes (pg-boss fetches with FOR UPDATE SKIP LOCKED), is retried with backoff when its
// handler throws, and a job whose time passed while no process was working runs at the next
// start. Handlers must be idempotent: a process killed mid-job leaves the job active until it
// expires, and then it runs again.

/** pg-boss's tables live in this schema (migrations/20261129000200_job_queue.ts creates it). */
export const JOB_QUEUE_SCHEMA = 'pgboss';

/** Retries unless a send says otherwise: 5, with exponential backoff from about 10 s. */
export const DEFAULT_RETRY = { retryLimit: 5, retryDelaySeconds: 10, retryBackoff: true } as const;

/**
 * How often a worker looks for due jobs: a job sent with startAfter runs within about this
 * long of its time (pg-boss's minimum is 0.5 s). One indexed query per queue per interval.
 */
export const DEFAULT_POLLING_SECONDS = 1;

/**
 * The embedded database's polling (app-context.ts). There, this process is the only one: every
 * job is sent by it and its sends wake their queue's worker (at once, or at the job's start
 * time), so polling only catches what pg-boss itself makes due (retries, cron runs). Every poll
 * runs in this process's main thread (PGlite): 7 queues every second were most of PGlite's 7% of
 * the server's CPU while it served cached pages (docs/performance.md).
 */
export const EMBEDDED_POLLING_SECONDS = 5;

/** A send wakes its worker at the job's start time when that is at most this far ahead (else a poll finds it). */
const WAKE_AHEAD_MAX_MS = 60 * 60 * 1000;

/**
 * pg-boss's queue policies. standard: every send is a job (singletonKey does nothing). short: at
 * most one job waiting to run per singletonKey, a second send answers null while the first waits
 * (sends without a key share one empty key: give every send a key). singleton: at most one job
 * running per key. stately: at most one waiting and one running per key.
 */
export type JobPolicy = 'standard' | 'short' | 'singleton' | 'stately';

export interface QueueSpec {
  name: string;
  /** standard unless said. */
  policy?: JobPolicy;
  /**
   * A cron line (minutes, in Canada/Eastern): a worker process keeps this schedule in pg-boss's
   * schedule table and, once per due minute across every process, sends the queue a job with
   * no data (keyed by the queue's name, so on a stately queue a run never overlaps the one before).
   */
  cron?: string;
  /**
   * A running job not finished after this long is taken as dead (its process was killed) and
   * retried by another process's maintenance (every MAINTENANCE_SECONDS): pg-boss's 15 minutes
   * unless said. Keep it well over the job's longest honest run, which would otherwise be
   * started a second time while the first still runs.
   */
  expireInSeconds?: number;
}

/** How often a worker process runs pg-boss's maintenance: expiring dead jobs, archiving. */
export const MAINTENANCE_SECONDS = 30;

/** The zone of the queues' cron lines: the city's. */
export const CRON_TIME_ZONE = 'America/Toronto';

export interface SendOptions {
  /** Not before this time. */
  startAfter?: Date;
  /** Deduplicates per the queue's policy (see JobPolicy); nothing on a standard queue. */
  singletonKey?: string;
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /** Enqueue inside this knex transaction: the job exists only if it commits. */
  trx?: Knex.Transaction;
}

export interface JobInfo {
  id: string;
  name: string;
  /** 0 on the first run, 1 on the first retry … */
  retryCount: number;
  retryLimit: number;
}

export type JobHandler = (data: unknown, job: JobInfo) => Promise<void>;

export interface WorkOptions {
  pollingIntervalSeconds?: number;
}

export interface StopOptions {
  /** How long to wait for handlers in flight; past it their jobs are failed (and retried later). 30 s unless said. */
  timeoutMs?: number;
}

export interface JobQueue {
  /**
   * Makes this process a worker: installs or upgrades pg-boss's schema if needed, creates the
   * queues of `queues` and starts maintenance (expiring jobs whose worker died, archiving).
   * Idempotent. Jobs due while no worker ran are fetched by the first `work` poll.
   */
  start(): Promise<void>;
  /** Stops polling, waits for the handlers in flight (up to timeoutMs) and for pg-boss's last statements. */
  stop(opts?: StopOptions): Promise<void>;
  /**
   * Enqueues a job; its id, or null when singletonKey matched a queued job. Works whether or not
   * this process started as a worker (HTTP handlers and tests enqueue; server processes work).
   * Inside a knex transaction pass it as trx: on PGlite the queue would otherwise wait for the
   * one connection that transaction holds (and give up after knex's acquire timeout).
   */
  send(name: string, data?: object | null, opts?: SendOptions): Promise<string | null>;
  /** Runs handler for each job of the queue, one at a time, in this process; needs start() first. */
  work(name: string, handler: JobHandler, opts?: WorkOptions): Promise<void>;
  /** Jobs of the queue by state (tests and operators): created, retry, active, completed, cancelled, failed. */
  counts(name: string): Promise<Record<string, number>>;
  /**
   * The operator's figures (the administrators' jobs page, /staff/jobs/): every queue's jobs
   * queued (created or retry; of them, scheduled: not due yet), running (active), failed (until
   * pg-boss archives them) and late (see LATE_AFTER_SECONDS). One query.
   */
  overview(): Promise<QueueOverview[]>;
  /** Failed jobs newest first, running and late ones oldest first, of every queue or of one; at most limit (50). */
  list(opts: JobListOptions): Promise<QueuedJob[]>;
  /**
   * Puts failed jobs of the queue back to run (pg-boss's retry: state retry, one more try, due at
   * once); how many were failed and now wait. A job that is not failed (any more) or not there is
   * left as it is. Inside a knex transaction pass it as trx, as for send.
   */
  retry(name: string, id: string | readonly string[], opts?: { trx?: Knex.Transaction }): Promise<number>;
  /**
   * Every queue's jobs due and waiting for a worker (created or retry, their start time passed)
   * and how long the oldest of them has waited past it, in seconds (0: none): the figures'
   * queue depth and job age (server/http/metrics.ts), one query on pg-boss's index of waiting jobs.
   */
  backlog(): Promise<QueueBacklog[]>;
}

export interface QueueBacklog {
  name: string;
  due: number;
  oldestDueSeconds: number;
}

/**
 * A job is late when it waits (created or retry) more than this long past its start time with
 * nobody taking it (no worker running, or workers falling behind), or when it has been active
 * longer than its expiry (its worker died; pg-boss's maintenance fails it and it is retried).
 */
export const LATE_AFTER_SECONDS = 60;

export interface QueueOverview {
  name: string;
  /** created or retry, due or not. */
  queued: number;
  /** Of queued, those whose start time is still ahead. */
  scheduled: number;
  /** active. */
  running: number;
  failed: number;
  late: number;
}

/** failed; active (running); late (waiting, or active, past LATE_AFTER_SECONDS or expiry). */
export type JobListState = 'failed' | 'active' | 'late';

export interface JobListOptions {
  state: JobListState;
  /** One queue's jobs; every queue's unless said. */
  name?: string;
  /** 50 unless said. */
  limit?: number;
}

export interface QueuedJob {
  id: string;
  name: string;
  state: string;
  data: unknown;
  retryCount: number;
  retryLimit: number;
  createdOn: Date;
  startAfter: Date;
  startedOn: Date | null;
  completedOn: Date | null;
  expireInSeconds: number;
  /** How long past its start time a waiting job waits, or past its expiry an active one runs; 0 when neither. */
  overdueSeconds: number;
  /** A failed job's error as pg-boss keeps it ({ name, message, stack } from a handler's throw), or what a completed one answered. */
  output: unknown;
}

export interface JobQueueOptions {
  /** The queues to create at start (the registry's jobs); others are created standard on first use. */
  queues?: readonly QueueSpec[];
  logger?: Pick<Logger, 'info' | 'warn' | 'error'>;
  pollingIntervalSeconds?: number;
  /** Maintenance (expire, archive, delete) every this many seconds in worker mode; MAINTENANCE_SECONDS unless said. */
  maintenanceIntervalSeconds?: number;
}

/**
 * The statements pg-boss runs, on a connection taken from knex's pool and given back: on
 * PGlite (one connection) a statement never lands inside someone's open knex transaction, and
 * on PostgreSQL the queue shares the pool's limit. A knex transaction passed in runs them on
 * its own connection (knex's transaction client answers that connection and never releases it).
 *
 * PGlite: a statement with values goes through query(); pg-boss's multi-statement scripts
 * (installing, migrating, maintenance: BEGIN; …; COMMIT;) have no values and go through exec(),
 * which answers one result per statement: the last one is the answer. pg's Client runs a text
 * without values over the simple protocol, which takes several statements too.
 */
export function knexPgBossDb(db: Knex | Knex.Transaction, track?: { inFlight: number }): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (track) track.inFlight += 1;
      try {
        const conn = (await db.client.acquireConnection()) as SqlConnection;
        try {
          const script = !values || values.length === 0;
          try {
            const result = script && isPglite(conn) ? await conn.exec(text) : await conn.query(text, values);
            const last = Array.isArray(result) ? result[result.length - 1] : result;
            return { rows: last?.rows ?? [], rowCount: last?.rowCount ?? last?.affectedRows ?? 0 };
          } catch (err) {
            // A failed script may leave its BEGIN open on this connection: close it before the
            // connection goes back to the pool (never a caller's transaction: scripts have no trx).
            if (script && /^\s*BEGIN\b/i.test(text) && !('isTransaction' in db && db.isTransaction)) {
              await (isPglite(conn) ? conn.exec('ROLLBACK') : conn.query('ROLLBACK')).catch(() => {});
            }
            throw err;
          }
        } finally {
          await db.client.releaseConnection(conn);
        }
      } finally {
        if (track) track.inFlight -= 1;
      }
    },
  };
}

interface SqlResult {
  rows?: unknown[];
  rowCount?: number | null;
  affectedRows?: number;
}

interface SqlConnection {
  query(text: string, values?: unknown[]): Promise<SqlResult | SqlResult[]>;
  exec?(text: string): Promise<SqlResult[]>;
}

function isPglite(conn: SqlConnection): conn is SqlConnection & { exec(text: string): Promise<SqlResult[]> } {
  return typeof conn.exec === 'function' && 'waitReady' in conn;
}

/** A late job of pgboss.job j. */
const LATE_SQL = `(j.state < 'active' AND j.start_after < now() - interval '${LATE_AFTER_SECONDS} seconds') OR (j.state = 'active' AND j.started_on + j.expire_in < now())`;

/** A row of list()'s statement. */
interface JobRow {
  id: string;
  name: string;
  state: string;
  data: unknown;
  retry_count: number;
  retry_limit: number;
  created_on: string | Date;
  start_after: string | Date;
  started_on: string | Date | null;
  completed_on: string | Date | null;
  output: unknown;
  expire_seconds: number;
  overdue: number;
}

/** Two processes creating queues at once may deadlock on pgboss.job (PostgreSQL aborts one): again. */
async function retryOnDeadlock(create: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await create();
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 100 * attempt));
    }
  }
}

/**
 * Writes the code's cron lines over the stored schedules: a queue with a cron line is
 * scheduled (its line and zone updated), one without has its old schedule removed.
 */
async function keepSchedules(boss: PgBoss, queues: readonly QueueSpec[]): Promise<void> {
  // pg-boss's Schedule type leaves out the zone its rows carry.
  const stored = new Map(((await boss.getSchedules()) as Array<PgBoss.Schedule & { timezone?: string }>).map((s) => [s.name, s]));
  for (const q of queues) {
    const had = stored.get(q.name);
    if (q.cron) {
      if (had?.cron !== q.cron || had?.timezone !== CRON_TIME_ZONE) await boss.schedule(q.name, q.cron, undefined, { tz: CRON_TIME_ZONE, singletonKey: q.name });
    } else if (had) {
      await boss.unschedule(q.name);
    }
  }
}

/**
 * The queue on `db`. Nothing is loaded or queried until the first call: a context that never
 * sends a job (most tests, the seed) pays nothing.
 */
export function createJobQueue(db: Knex, opts: JobQueueOptions = {}): JobQueue {
  const track = { inFlight: 0 };
  const adapter = knexPgBossDb(db, track);
  const polling = opts.pollingIntervalSeconds ?? DEFAULT_POLLING_SECONDS;
  const ensured = new Map<string, Promise<void>>();
  // This process's worker of each queue, which a send wakes (see wake below).
  const workers = new Map<string, string>();
  const wakeTimers = new Set<NodeJS.Timeout>();
  const specs = new Map((opts.queues ?? []).map((q) => [q.name, q]));
  let client: Promise<PgBoss> | null = null; // sending only: no maintenance, no timers
  let worker: Promise<PgBoss> | null = null; // start(): maintenance and workers
  let handlersInFlight = 0;

  const open = async (supervise: boolean): Promise<PgBoss> => {
    const { default: PgBossClass } = await import('pg-boss');
    const boss = new PgBossClass({
      db: adapter,
      schema: JOB_QUEUE_SCHEMA,
      migrate: true, // a newer pg-boss upgrades its schema at start (advisory-locked: one process does it)
      supervise,
      // The worker process keeps the clock: pg-boss checks the schedules every 10 s (one
      // process of any number does, a database row holds the last check) and sends each due
      // minute's jobs once, through a queue of its own worked every 2 s: a cron job starts
      // within about 12 s of its minute (about 20 s at EMBEDDED_POLLING_SECONDS).
      schedule: supervise,
      cronMonitorIntervalSeconds: 10,
      // pg-boss's own queue of due cron runs polls no faster than the app's queues.
      cronWorkerIntervalSeconds: Math.min(45, Math.max(2, Math.round(polling))),
      maintenanceIntervalSeconds: opts.maintenanceIntervalSeconds ?? MAINTENANCE_SECONDS,
      retryLimit: DEFAULT_RETRY.retryLimit,
      retryDelay: DEFAULT_RETRY.retryDelaySeconds,
      retryBackoff: DEFAULT_RETRY.retryBackoff,
    });
    boss.on('error', (err) => opts.logger?.error({ err }, 'job queue error'));
    await boss.start();
    // A worker creates every registered queue (a sender only those it sends to, when it does):
    // one after another, as creating a queue attaches a partition to pgboss.job and two at once deadlock.
    if (supervise) {
      for (const q of opts.queues ?? []) await ensureQueue(boss, q.name);
      await keepSchedules(boss, opts.queues ?? []);
    }
    return boss;
  };

  // Each queue is created once per process (create_queue does nothing when it exists). A job
  // sent to a queue that does not exist would be dropped without a word by pg-boss. A policy
  // or expiry changed in the code is written over the stored one (each job keeps its own at insert).
  const ensureQueue = (boss: PgBoss, name: string): Promise<void> => {
    let done = ensured.get(name);
    if (!done) {
      const spec = specs.get(name);
      const policy = spec?.policy ?? 'standard';
      const expiry = spec?.expireInSeconds ? { expireInSeconds: spec.expireInSeconds } : {};
      done = (async () => {
        await retryOnDeadlock(() => boss.createQueue(name, { name, policy, ...expiry }));
        if (policy === 'standard' && !spec?.expireInSeconds) return;
        const stored = await boss.getQueue(name);
        if (stored?.policy !== policy || (spec?.expireInSeconds && stored?.expireInSeconds !== spec.expireInSeconds)) await boss.updateQueue(name, { name, policy, ...expiry });
      })().catch((err: unknown) => {
        ensured.delete(name);
        throw err;
      });
      ensured.set(name, done);
    }
    return done;
  };

  /**
   * A job sent by this process wakes this process's worker of its queue when it is due (now, or
   * by a timer at its start time), instead of waiting for the next poll. In a transaction, a
   * worker that fetches before the commit finds nothing and waits for its next poll, as before
   * (on PGlite the fetch waits for the transaction's connection, so it finds the job).
   */
  const wake = (name: string, startAfter: Date | undefined): void => {
    const delayMs = startAfter ? startAfter.getTime() - Date.now() : 0;
    const notify = () => {
      const id = workers.get(name);
      if (id) void worker?.then((boss) => boss.notifyWorker(id), () => undefined);
    };
    if (delayMs <= 0) return notify();
    if (delayMs > WAKE_AHEAD_MAX_MS) return;
    // pg-boss fetches jobs whose start time is before now(): a little after it.
    const timer = setTimeout(() => {
      wakeTimers.delete(timer);
      notify();
    }, delayMs + 50);
    timer.unref();
    wakeTimers.add(timer);
  };

  const ready = (): Promise<PgBoss> => {
    if (worker) return worker;
    client ??= open(false).catch((err: unknown) => {
      client = null;
      throw err;
    });
    return client;
  };

  return {
    async start() {
      worker ??= open(true).catch((err: unknown) => {
        worker = null;
        throw err;
      });
      await worker;
    },

    async stop(stopOpts = {}) {
      const timeoutMs = stopOpts.timeoutMs ?? 30_000;
      const deadline = Date.now() + timeoutMs;
      const boss = await worker?.catch(() => null);
      worker = null;
      client = null;
      ensured.clear();
      workers.clear();
      for (const timer of wakeTimers) clearTimeout(timer);
      wakeTimers.clear();
      if (boss) await boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs });
      // A poll in flight when the workers stopped may still answer a job: its handler runs to
      // the end and its completion is written before the database may close.
      while ((track.inFlight > 0 || handlersInFlight > 0) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },

    async send(name, data = null, sendOpts = {}) {
      const boss = await ready();
      await ensureQueue(boss, name);
      const options: PgBoss.SendOptions = {
        startAfter: sendOpts.startAfter,
        singletonKey: sendOpts.singletonKey,
        retryLimit: sendOpts.retryLimit,
        retryDelay: sendOpts.retryDelaySeconds,
        retryBackoff: sendOpts.retryBackoff,
        db: sendOpts.trx ? knexPgBossDb(sendOpts.trx) : undefined,
      };
      for (const key of Object.keys(options) as Array<keyof PgBoss.SendOptions>) if (options[key] === undefined) delete options[key];
      const id = await boss.send(name, data as object, options);
      if (id) wake(name, sendOpts.startAfter);
      return id;
    },

    async work(name, handler, workOpts = {}) {
      if (!worker) throw new Error(`job queue: start() before work('${name}')`);
      const boss = await worker;
      await ensureQueue(boss, name);
      const self = { workerId: '' }; // set once work() answers (a first job may come before that)
      self.workerId = await boss.work<unknown>(
        name,
        { pollingIntervalSeconds: workOpts.pollingIntervalSeconds ?? polling, batchSize: 1, includeMetadata: true },
        async ([job]) => {
          handlersInFlight += 1;
          const info: JobInfo = { id: job.id, name, retryCount: job.retryCount, retryLimit: job.retryLimit };
          try {
            await handler(job.data, info);
          } catch (err) {
            const final = job.retryCount >= job.retryLimit;
            opts.logger?.[final ? 'error' : 'warn']({ err, job: info }, final ? 'job failed for good' : 'job failed; it will be retried');
            throw err;
          } finally {
            handlersInFlight -= 1;
            // pg-boss's worker waits a polling interval after every fetch, even one that found a
            // job: one job a second. Told that it found one, it fetches the next at once, and
            // waits only once the queue has nothing due.
            if (self.workerId) boss.notifyWorker(self.workerId);
          }
        },
      );
      workers.set(name, self.workerId);
    },

    async backlog() {
      const { rows } = await adapter.executeSql(
        `SELECT q.name, count(j.id)::int AS due, COALESCE(EXTRACT(EPOCH FROM now() - min(j.start_after)), 0)::float8 AS oldest
         FROM ${JOB_QUEUE_SCHEMA}.queue q
         LEFT JOIN ${JOB_QUEUE_SCHEMA}.job j ON j.name = q.name AND j.state < 'active' AND j.start_after <= now()
         GROUP BY q.name ORDER BY q.name`,
        [],
      );
      return (rows as Array<{ name: string; due: number; oldest: number }>).map((r) => ({ name: r.name, due: Number(r.due), oldestDueSeconds: Math.max(0, Number(r.oldest)) }));
    },

    async counts(name) {
      const { rows } = await adapter.executeSql(`SELECT state, count(*)::int AS n FROM ${JOB_QUEUE_SCHEMA}.job WHERE name = $1 GROUP BY state`, [name]);
      return Object.fromEntries((rows as Array<{ state: string; n: number }>).map((r) => [r.state, Number(r.n)]));
    },

    async overview() {
      const { rows } = await adapter.executeSql(
        `SELECT q.name,
           count(j.id) FILTER (WHERE j.state < 'active')::int AS queued,
           count(j.id) FILTER (WHERE j.state < 'active' AND j.start_after > now())::int AS scheduled,
           count(j.id) FILTER (WHERE j.state = 'active')::int AS running,
           count(j.id) FILTER (WHERE j.state = 'failed')::int AS failed,
           count(j.id) FILTER (WHERE ${LATE_SQL})::int AS late
         FROM ${JOB_QUEUE_SCHEMA}.queue q
         LEFT JOIN ${JOB_QUEUE_SCHEMA}.job j ON j.name = q.name AND j.state IN ('created', 'retry', 'active', 'failed')
         GROUP BY q.name ORDER BY q.name`,
        [],
      );
      return (rows as Array<Record<keyof QueueOverview, string | number>>).map((r) => ({
        name: String(r.name),
        queued: Number(r.queued),
        scheduled: Number(r.scheduled),
        running: Number(r.running),
        failed: Number(r.failed),
        late: Number(r.late),
      }));
    },

    async list({ state, name, limit = 50 }) {
      const where = { failed: `j.state = 'failed'`, active: `j.state = 'active'`, late: LATE_SQL }[state];
      const order = state === 'failed' ? 'j.completed_on DESC NULLS LAST, j.id' : state === 'active' ? 'j.started_on, j.id' : 'overdue DESC, j.id';
      const { rows } = await adapter.executeSql(
        `SELECT j.id, j.name, j.state, j.data, j.retry_count, j.retry_limit, j.created_on, j.start_after, j.started_on, j.completed_on, j.output,
           EXTRACT(EPOCH FROM j.expire_in)::float8 AS expire_seconds,
           GREATEST(0, EXTRACT(EPOCH FROM now() - CASE WHEN j.state = 'active' THEN j.started_on + j.expire_in ELSE j.start_after END))::float8 AS overdue
         FROM ${JOB_QUEUE_SCHEMA}.job j
         WHERE (${where}) AND ($1::text IS NULL OR j.name = $1::text)
         ORDER BY ${order}
         LIMIT $2::int`,
        [name ?? null, Math.max(1, Math.min(1000, Math.floor(limit)))],
      );
      return (rows as JobRow[]).map((r) => ({
        id: String(r.id),
        name: r.name,
        state: r.state,
        data: r.data ?? null,
        retryCount: Number(r.retry_count),
        retryLimit: Number(r.retry_limit),
        createdOn: new Date(r.created_on),
        startAfter: new Date(r.start_after),
        startedOn: r.started_on === null ? null : new Date(r.started_on),
        completedOn: r.completed_on === null ? null : new Date(r.completed_on),
        expireInSeconds: Number(r.expire_seconds),
        overdueSeconds: Number(r.overdue),
        output: r.output ?? null,
      }));
    },

    async retry(name, id, retryOpts = {}) {
      const ids = typeof id === 'string' ? [id] : [...id];
      if (ids.length === 0) return 0;
      const boss = await ready();
      const on = retryOpts.trx ? knexPgBossDb(retryOpts.trx) : adapter;
      // pg-boss 10 answers { jobs, requested, affected } though its types say void.
      const result = (await boss.retry(name, ids, { db: on })) as unknown as { affected?: number } | undefined;
      // pg-boss leaves the failed job's times: it is due from now (not late for having failed
      // long ago), and kept waiting as long as a new job would be before maintenance archives it.
      await on.executeSql(
        `UPDATE ${JOB_QUEUE_SCHEMA}.job SET start_after = GREATEST(start_after, now()), keep_until = GREATEST(keep_until, now() + interval '14 days')
         WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'retry'`,
        [name, ids],
      );
      return Number(result?.affected ?? 0);
    },
  };
}
