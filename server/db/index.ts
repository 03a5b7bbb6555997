import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { acquireDataDirLock } from './pglite-lock';
import { openReplicaReader, type Replica } from './replica';

export type Db = Knex;

// Make both drivers answer the same JavaScript types: bigint counts as numbers, numeric as
// numbers, `date` as the 'YYYY-MM-DD' string it is (not a Date at local midnight).
const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;
pg.types.setTypeParser(INT8, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(NUMERIC, (v) => Number.parseFloat(v));
pg.types.setTypeParser(DATE, (v) => v);

const pgliteParsers = {
  [INT8]: (v: string) => Number.parseInt(v, 10),
  [NUMERIC]: (v: string) => Number.parseFloat(v),
  [DATE]: (v: string) => v,
};

const CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_REPLICA_MAX_LAG_MS = 5_000;
const ACQUIRE_TIMEOUT_MS = 10_000;

export interface DbHandle {
  db: Db;
  /** Which database answers: a PostgreSQL server (DATABASE_URL) or the embedded PGlite. */
  kind: 'postgres' | 'pglite';
  /**
   * For read-only queries a replica may answer (public pages and APIs): with replicaUrl, a
   * reader on it that falls back to the primary (replica.ts); without, db itself.
   */
  read: Db;
  /** The replica's monitor and read-your-writes routing; null without one. */
  replica: Replica | null;
  /** Destroys the pool; for PGlite also closes the database and releases its data directory's lock. */
  close(): Promise<void>;
}

export interface OpenOptions {
  databaseUrl?: string;
  /** PGlite data directory; ignored with databaseUrl. */
  dataDir?: string;
  /** PGlite: start from a dumped data directory (tests). */
  loadDataDir?: Blob;
  /** PGlite: in memory, no lock, nothing on disk (tests). */
  inMemory?: boolean;
  poolMax?: number;
  /** A streaming replica of databaseUrl for the reader (DATABASE_REPLICA_URL). */
  replicaUrl?: string;
  /** Beyond this lag reads go to the primary (DATABASE_REPLICA_MAX_LAG_SECONDS); 5 s unless said. */
  replicaMaxLagMs?: number;
  /** How often the replica is checked; 1 s unless said (tests check more often). */
  replicaCheckMs?: number;
  /** Where knex's own warnings go (a dropped connection, a failed connect); console otherwise. */
  logger?: Pick<Logger, 'warn' | 'error' | 'debug'> & Partial<Pick<Logger, 'info'>>;
}

export async function openDatabase(opts: OpenOptions): Promise<DbHandle> {
  if (opts.databaseUrl) {
    // While the server is away (a restart, a failover) requests must fail fast and answer
    // 503, not queue for knex's default minute: connecting gives up after 5 s and waiting
    // for a pooled connection after 10 s. A pooled connection that dies (a terminated
    // backend, a reset socket) is not a crash: knex listens for each client's 'error' and
    // 'end', marks it disposed and the pool replaces it on the next acquire.
    const db = knexFactory({
      client: 'pg',
      connection: { connectionString: opts.databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true },
      acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS,
      pool: { min: 0, max: opts.poolMax ?? 10 },
      log: knexLog(opts.logger),
    });
    if (!opts.replicaUrl) return { db, read: db, replica: null, kind: 'postgres', close: () => db.destroy() };
    const { read, replica } = await openReplicaReader(db, {
      url: opts.replicaUrl,
      maxLagMs: opts.replicaMaxLagMs ?? DEFAULT_REPLICA_MAX_LAG_MS,
      checkMs: opts.replicaCheckMs,
      poolMax: opts.poolMax,
      logger: opts.logger,
      log: knexLog(opts.logger),
    });
    return {
      db,
      read,
      replica,
      kind: 'postgres',
      close: async () => {
        await replica.close();
        await db.destroy();
      },
    };
  }

  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { default: ClientPgLite } = await import('knex-pglite');
  let release = () => {};
  let dataDir: string | undefined;
  if (!opts.inMemory && !opts.loadDataDir) {
    dataDir = path.resolve(opts.dataDir ?? 'data', 'pglite');
    release = acquireDataDirLock(path.dirname(dataDir));
  }
  try {
    const pglite = await PGlite.create({
      dataDir,
      loadDataDir: opts.loadDataDir,
      extensions: { pg_trgm },
      parsers: pgliteParsers,
    });
    const db = knexFactory({
      client: ClientPgLite,
      dialect: 'postgres',
      connection: () => ({ pglite }) as never,
    });
    return {
      db,
      read: db,
      replica: null,
      kind: 'pglite',
      close: async () => {
        await db.destroy();
        if (!pglite.closed) await pglite.close();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}

export function openDatabaseFromConfig(config: Config, logger?: OpenOptions['logger']): Promise<DbHandle> {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    replicaUrl: config.databaseReplica.url,
    replicaMaxLagMs: config.databaseReplica.maxLagMs,
    logger,
  });
}

function knexLog(logger: OpenOptions['logger']): Knex.Config['log'] {
  if (!logger) return undefined;
  return {
    warn: (message: unknown) => logger.warn({ knex: message }, 'database'),
    error: (message: unknown) => logger.error({ knex: message }, 'database'),
    debug: (message: unknown) => logger.debug({ knex: message }, 'database'),
    deprecate: (message: unknown) => logger.warn({ knex: message }, 'database'),
  };
}
