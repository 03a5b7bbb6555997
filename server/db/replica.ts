import { AsyncLocalStorage } from 'node:async_hooks';
import knexFactory, { type Knex } from 'knex';
import PgClient from 'knex/lib/dialects/postgres/index.js';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from './unavailable';
import { parseLsn } from './lsn';

// Reads from a streaming replica (DATABASE_REPLICA_URL). The reader is a knex instance whose
// client picks, for each query, the replica's pool or the primary's:
// - the primary while the replica is down, lagging past the bound, or not yet checked, and
//   while the request carries a read-your-writes marker (read-your-writes.ts) the replica has
//   not replayed past;
// - the primary again, at once, for a query the replica fails to answer because it went away
//   (a refused connection, a terminated backend): that request is not lost, and the replica
//   is counted down until the next check says otherwise;
// - the primary always for a transaction (knex.transaction on the reader).
// A monitor asks both servers where they are every second: pg_current_wal_lsn() on the
// primary, pg_last_wal_replay_lsn() on the replica. The lag in seconds is how long the replica
// has been short of the oldest primary position it has not replayed yet (to the second): an
// idle primary is never mistaken for a lagging replica, as now() - pg_last_xact_replay_timestamp() would.

export type ReplicaState = 'starting' | 'streaming' | 'lagging' | 'down';

export interface ReplicaStatus {
  state: ReplicaState;
  /** Seconds behind (resolution: the check interval); null until both servers answered once. */
  lagSeconds: number | null;
  /** WAL bytes the replica has not replayed at the last check; null until known. */
  lagBytes: number | null;
  /** Why it is down or not used, when it is. */
  reason?: string;
}

/** What a request that wrote carries (read-your-writes.ts): read from the primary until the replica replayed `lsn`, at most until `untilMs`. */
export interface ReadMarker {
  /** The primary's WAL position after the write; null when it could not be read (the primary until untilMs). */
  lsn: bigint | null;
  untilMs: number;
}

export interface Replica {
  /** DATABASE_REPLICA_MAX_LAG_SECONDS in ms: beyond it, reads go to the primary. */
  maxLagMs: number;
  /** How often the monitor checks the replica, in ms. */
  checkMs: number;
  status(): ReplicaStatus;
  /** pg_current_wal_lsn() on the primary: a position at or past every write committed so far. */
  primaryLsn(): Promise<bigint>;
  /** Runs fn (and everything it starts) with its reads on the primary until the replica has replayed the marker. */
  withMarker<T>(marker: ReadMarker, fn: () => T): T;
  /** Checks both servers now (the monitor does so every checkMs). */
  check(): Promise<ReplicaStatus>;
  /** Stops the monitor and closes the replica's pool. */
  close(): Promise<void>;
}

export interface ReplicaOptions {
  url: string;
  maxLagMs: number;
  checkMs?: number;
  poolMax?: number;
  logger?: Pick<Logger, 'warn' | 'error'> & Partial<Pick<Logger, 'info'>>;
  /** knex's own log for the replica's pool (knexLog in index.ts). */
  log?: Knex.Config['log'];
}

const CHECK_MS = 1_000;
/** A replica that does not connect this fast is treated as down: the primary answers instead. */
const REPLICA_CONNECT_TIMEOUT_MS = 1_000;
const CHECK_TIMEOUT_MS = 2_000;
/** Unreplayed primary positions kept for the lag: one a check, so an hour's worth. */
const MAX_SAMPLES = 3_600;

const READ_ONLY_SQL_TRANSACTION = '25006';

const markers = new AsyncLocalStorage<ReadMarker>();
const QUERY_EVENTS = ['query', 'query-response', 'query-error'] as const;

/** The reader on the replica, falling back to `primary`, and the replica's monitor. */
export async function openReplicaReader(primary: Knex, opts: ReplicaOptions): Promise<{ read: Knex; replica: Replica }> {
  const checkMs = opts.checkMs ?? CHECK_MS;
  let state: ReplicaState = 'starting';
  let reason: string | undefined = 'not checked yet';
  let replayed: bigint | null = null;
  let lagSeconds: number | null = null;
  let lagBytes: number | null = null;
  /** Primary positions the replica had not replayed when last checked, oldest first, with when they were seen. */
  let behind: Array<{ at: number; lsn: bigint }> = [];

  const setState = (next: ReplicaState, why?: string) => {
    if (next !== state) {
      const fields = { replica: next, from: state, reason: why, lagSeconds };
      if (next === 'streaming') opts.logger?.info?.(fields, 'reads go to the replica');
      else opts.logger?.warn(fields, 'reads go to the primary');
    }
    state = next;
    reason = why;
  };

  const replicaServes = (): boolean => {
    if (state !== 'streaming') return false;
    const marker = markers.getStore();
    if (!marker || Date.now() > marker.untilMs) return true;
    return marker.lsn !== null && replayed !== null && replayed >= marker.lsn;
  };

  const fromPrimary = new WeakSet<object>();
  const primaryClient = primary.client;
  const acquirePrimary = async (): Promise<object> => {
    const connection = (await primaryClient.acquireConnection()) as object;
    fromPrimary.add(connection);
    return connection;
  };
  const replicaFailed = (err: unknown) => {
    lagSeconds = lagBytes = null; // unknown while it does not answer
    setState('down', err instanceof Error ? err.message : String(err));
  };

  class ReplicaClient extends PgClient {
    override async acquireConnection(): Promise<unknown> {
      if (!replicaServes()) return acquirePrimary();
      try {
        return await super.acquireConnection();
      } catch (err) {
        if (!isDatabaseUnavailable(err)) throw err;
        replicaFailed(err);
        return acquirePrimary();
      }
    }

    override releaseConnection(connection: object): unknown {
      if (fromPrimary.has(connection)) {
        fromPrimary.delete(connection);
        return primaryClient.releaseConnection(connection);
      }
      return super.releaseConnection(connection);
    }

    override async _query(connection: object, obj: unknown): Promise<unknown> {
      if (fromPrimary.has(connection)) return super._query(connection, obj);
      try {
        return await super._query(connection, obj);
      } catch (err) {
        // The replica went away under this query: it is asked again of the primary. A write
        // sent here by mistake (read_only_sql_transaction) is sent there too, and the replica,
        // which is fine, stays in use.
        if (!isDatabaseUnavailable(err)) throw err;
        if ((err as { code?: unknown }).code !== READ_ONLY_SQL_TRANSACTION) replicaFailed(err);
        const onPrimary = await acquirePrimary();
        try {
          return await super._query(onPrimary, obj);
        } finally {
          fromPrimary.delete(onPrimary);
          await primaryClient.releaseConnection(onPrimary);
        }
      }
    }

    // Every read inside a transaction is the primary's, and so is every write.
    override transaction(container: unknown, config: unknown, outerTx: unknown): Knex.Transaction {
      return primaryClient.transaction(container, config, outerTx);
    }

    /** One query on the replica itself, for the monitor. */
    async askReplica(sql: string): Promise<Record<string, unknown>> {
      const connection = (await super.acquireConnection()) as { query(sql: string): Promise<{ rows: Record<string, unknown>[] }> };
      try {
        const { rows } = await connection.query(sql);
        return rows[0] ?? {};
      } finally {
        await super.releaseConnection(connection);
      }
    }
  }

  const read = knexFactory({
    client: ReplicaClient,
    connection: { connectionString: opts.url, connectionTimeoutMillis: REPLICA_CONNECT_TIMEOUT_MS, keepAlive: true },
    acquireConnectionTimeout: REPLICA_CONNECT_TIMEOUT_MS * 2,
    pool: { min: 0, max: opts.poolMax ?? 10 },
    // Refused connections while it is down would be a warning a second: setState says it once.
    log: opts.log && { ...opts.log, warn: opts.log.debug },
  });
  const client = read.client as ReplicaClient;
  // Its queries count where the primary's do (query-stats.ts listens to the primary).
  for (const event of QUERY_EVENTS) read.on(event, (...args: unknown[]) => primary.emit(event, ...args));

  const primaryLsn = async (): Promise<bigint> => {
    const { rows } = await primary.raw<{ rows: { lsn: string }[] }>('select pg_current_wal_lsn()::text as lsn');
    const lsn = parseLsn(rows[0]?.lsn ?? '');
    if (lsn === null) throw new Error(`the primary answered no WAL position (${rows[0]?.lsn})`);
    return lsn;
  };

  const withTimeout = <T>(p: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS)));
    return Promise.race([p, late]).finally(() => clearTimeout(timer));
  };

  const check = async (): Promise<ReplicaStatus> => {
    // The primary first: a replica that has replayed what it had then is not behind.
    const now = Date.now();
    const primaryAt = await withTimeout(primaryLsn()).catch(() => null);
    let replicaAt: bigint | null;
    try {
      const row = await withTimeout(client.askReplica('select pg_last_wal_replay_lsn()::text as lsn'));
      replicaAt = typeof row.lsn === 'string' ? parseLsn(row.lsn) : null;
    } catch (err) {
      replicaFailed(err);
      return status();
    }
    // A server that is not (or no longer) in recovery has no replay position: a promoted
    // replica goes its own way, and a primary named as the replica is a mistake.
    if (replicaAt === null) {
      setState('down', 'not a standby (pg_last_wal_replay_lsn() is null)');
      return status();
    }
    replayed = replicaAt;
    if (primaryAt !== null) {
      if (primaryAt > replicaAt && behind.length < MAX_SAMPLES) behind.push({ at: now, lsn: primaryAt });
      behind = behind.filter((s) => s.lsn > replicaAt);
      lagSeconds = behind.length ? (Date.now() - behind[0].at) / 1000 : 0;
      lagBytes = primaryAt > replicaAt ? Number(primaryAt - replicaAt) : 0;
    }
    // The primary unreachable: what the replica has is all there is; it keeps serving reads.
    if (lagSeconds !== null && lagSeconds * 1000 > opts.maxLagMs) setState('lagging', `behind by more than ${opts.maxLagMs / 1000} s`);
    else setState('streaming');
    return status();
  };

  const status = (): ReplicaStatus => ({ state, lagSeconds, lagBytes, ...(reason ? { reason } : {}) });

  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const loop = () => {
    timer = setTimeout(() => {
      check()
        .catch((err: unknown) => opts.logger?.error({ err }, 'replica check failed'))
        .finally(() => {
          if (!closed) loop();
        });
    }, checkMs).unref();
  };
  await check(); // the first answer before serving: a replica down at start is known at once
  loop();

  const replica: Replica = {
    maxLagMs: opts.maxLagMs,
    checkMs,
    status,
    primaryLsn,
    withMarker: (marker, fn) => markers.run(marker, fn),
    check,
    close: async () => {
      closed = true;
      clearTimeout(timer);
      await read.destroy();
    },
  };
  return { read, replica };
}
