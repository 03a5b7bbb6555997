import type { Config } from './config';
import type { AppContext } from './context';
import type { DbHandle } from './db';
import { createLogger } from './logger';
import type { Mailer } from './mail/mailer';
import { createStorage } from './storage/storage-factory';
import { appJobs, appServices } from './apps';
import { EMBEDDED_POLLING_SECONDS, createJobQueue } from './jobs/queue';
import { createChangeNotices } from './cache/change-notices';

/** For scripts that must never send mail (benches, measurements): every message is dropped. */
export const droppedMail: Mailer = { send: async () => {} };

/**
 * The context every entry point builds from its config and database (the server, the test
 * app, the seed, the bench scripts), so a new dependency is added in one place. Each caller
 * says where mail goes; logger, storage and clock default to the config's.
 */
export function buildAppContext(
  config: Config,
  handle: Pick<DbHandle, 'db' | 'kind'> & Partial<Pick<DbHandle, 'read' | 'replica'>>,
  parts: Pick<AppContext, 'mailer'> & Partial<Pick<AppContext, 'logger' | 'storage' | 'now'>>,
): AppContext {
  const logger = parts.logger ?? createLogger(config);
  const ctx: AppContext = {
    // The services built per context that need it (live co-editing) get it once it is whole.
    ...appServices(() => ctx),
    config,
    db: handle.db,
    dbRead: handle.read ?? handle.db,
    replica: handle.replica ?? null,
    dbKind: handle.kind,
    logger,
    mailer: parts.mailer,
    storage: parts.storage ?? createStorage(config),
    now: parts.now ?? (() => new Date()),
    // Lazy: created here for every context, it loads pg-boss and queries only when first used.
    // Notices go through PostgreSQL when there is one; the embedded database has one process.
    changes: createChangeNotices({ db: handle.db, databaseUrl: handle.kind === 'postgres' ? config.databaseUrl : undefined, logger }),
    // PGlite: one process, whose sends wake its workers; their polls run on its main thread.
    jobs: createJobQueue(handle.db, {
      queues: appJobs.map(({ name, policy, cron, expireInSeconds }) => ({ name, policy, cron, expireInSeconds })),
      logger,
      pollingIntervalSeconds: handle.kind === 'pglite' ? EMBEDDED_POLLING_SECONDS : undefined,
    }),
  };
  return ctx;
}
