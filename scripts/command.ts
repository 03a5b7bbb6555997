import path from 'node:path';
import { loadConfig, type Config } from '../server/config';
import { openDatabaseFromConfig, type Db, type DbHandle } from '../server/db';
import { migrateLatest } from '../server/db/migrate';
import { createLogger, type Logger } from '../server/logger';
import { createMailer, type Mailer } from '../server/mail/mailer';

// What every npm command script (migrate, seed, staff:grant, events:moderate, accounts:purge,
// newsletters:send, events:import-images) shares: the database the server's configuration
// names, migrated before use and closed whatever happens, and one way to end (the error's
// message on stderr and exit code 1). They run on DATABASE_URL, or on the embedded database in
// DATA_DIR, which PGlite lets one process open at a time: stop the server first.

/**
 * Runs `main` when `entry` is the script node was started with (`module` of the caller), so
 * tests can import a command's functions without running it. A thrown error prints its message
 * (its stack with `showStack`) and exits 1; an exit code `main` sets (process.exitCode) stands.
 */
export function runCommand(entry: NodeModule, main: () => Promise<void>, opts: { showStack?: boolean } = {}): void {
  if (require.main !== entry) return;
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? (opts.showStack ? (err.stack ?? err.message) : err.message) : err);
    process.exit(1);
  });
}

export interface CommandDatabase {
  db: Db;
  kind: DbHandle['kind'];
  config: Config;
  /** The migrations this run applied first (none when up to date), and how long they took. */
  migrated: { ran: string[]; ms: number };
}

/**
 * Opens the configured database (`config`, or loadConfig() from the environment), migrates it
 * to the latest, runs `fn` and closes the database, whether `fn` succeeds or throws. `logger`
 * receives the database driver's warnings (without one, they go to the console).
 */
export async function withDatabase<T>(fn: (database: CommandDatabase) => Promise<T>, opts: { config?: Config; logger?: Logger } = {}): Promise<T> {
  const config = opts.config ?? loadConfig();
  const handle = await openDatabaseFromConfig(config, opts.logger);
  try {
    const t0 = Date.now();
    const ran = await migrateLatest(handle.db);
    return await fn({ db: handle.db, kind: handle.kind, config, migrated: { ran, ms: Date.now() - t0 } });
  } finally {
    await handle.close();
  }
}

/** A command's logger: warnings and errors only, so its own output stays readable. */
export function commandLogger(config: Config): Logger {
  return createLogger({ ...config, logLevel: 'warn' });
}

/** The server's mailer: SMTP_URL, or .eml files in DATA_DIR/outbox (`smtpUrl` undefined forces the outbox). */
export function commandMailer(config: Config, logger: Logger, smtpUrl: string | undefined = config.mail.smtpUrl): Mailer {
  return createMailer({ smtpUrl, from: config.mail.from, outboxDir: path.join(config.dataDir, 'outbox'), logger });
}
