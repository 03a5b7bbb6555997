import type { Server } from 'node:http';
import path from 'node:path';
import { loadConfig, ConfigError, type Config } from './config';
import { createLogger } from './logger';
import { openDatabaseFromConfig } from './db';
import { migrateLatest } from './db/migrate';
import { waitForIdlePool } from './db/drain';
import { createApp, type CreateAppOptions } from './app';
import { gracefulClose } from './http/graceful-close';
import { startMetricsServer } from './http/metrics-endpoint';
import { createMailer } from './mail/mailer';
import type { AppContext } from './context';
import { appJobs } from './apps';
import { buildAppContext } from './app-context';
import { logCacheRefreshErrorsTo } from './cache/refresh-ahead';

export interface StartOptions {
  config?: Config;
  /** Runs after migrations and before the server listens (npm start seeds the demo here). */
  beforeListen?: (ctx: AppContext) => Promise<void>;
  /** Runs once the server accepts connections, with its URL (npm start tells the person). */
  onListening?: (url: string) => void;
  app?: CreateAppOptions;
}

/** Builds everything from the config, migrates, listens, and stops cleanly on SIGTERM/SIGINT. */
export async function startServer(opts: StartOptions = {}): Promise<{ server: Server; ctx: AppContext; stop: () => Promise<void> }> {
  const config = opts.config ?? loadConfig();
  const logger = createLogger(config);
  // A failed background refresh of a cache (cache/refresh-ahead.ts) goes to the server's log.
  logCacheRefreshErrorsTo(logger);
  const handle = await openDatabaseFromConfig(config, logger);
  const t0 = Date.now();
  const ran = await migrateLatest(handle.db);
  if (ran.length) logger.info({ migrations: ran.length, ms: Date.now() - t0 }, 'database migrated');
  const ctx = buildAppContext(config, handle, {
    logger,
    mailer: createMailer({ smtpUrl: config.mail.smtpUrl, from: config.mail.from, outboxDir: path.join(config.dataDir, 'outbox'), logger }),
  });
  if (opts.beforeListen) await opts.beforeListen(ctx);
  const app = createApp(ctx, opts.app);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  server.keepAliveTimeout = 65_000; // longer than nginx's upstream keepalive
  // Live co-editing's websocket (the newsroom's story editor).
  server.on('upgrade', (req, socket, head) => ctx.sharedStories.handleUpgrade(req, socket, head));
  const closer = gracefulClose(server);
  // The figures' own port (METRICS_PORT), loopback unless METRICS_HOST says otherwise.
  const { port: metricsPort, host: metricsHost } = config.metrics;
  const metricsServer = metricsPort ? await startMetricsServer({ port: metricsPort, host: metricsHost }, logger) : null;
  if (metricsServer) logger.info({ url: `http://${metricsHost}:${metricsPort}/metrics` }, 'figures for Prometheus');
  const jobWorkers = keepStartingJobWorkers(ctx);
  // Other processes' content changes reach this one's caches (PostgreSQL; nothing to do on PGlite).
  await ctx.changes.listen();

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      logger.info('shutting down: no new connections, finishing requests in flight');
      const startedStopping = Date.now();
      // The job workers stop polling now and finish the jobs they hold within the same grace
      // period as the requests (a job still running then is failed and retried by another
      // process or the next start); requests may still enqueue meanwhile.
      jobWorkers.stop();
      // Open stories' bodies written into the stories, their editors sent to another process.
      const sharedClosed = ctx.sharedStories.close().catch((err: unknown) => logger.error({ err }, 'closing live editing failed'));
      const jobsStopped = ctx.jobs.stop({ timeoutMs: config.shutdownGraceMs }).catch((err: unknown) => logger.error({ err }, 'stopping the job queue failed'));
      const { forced } = await closer.close(config.shutdownGraceMs);
      if (forced) logger.warn('requests still in flight at the end of the grace period were cut off');
      await jobsStopped;
      await sharedClosed;
      // Scraped until the requests are done; closed before the database.
      if (metricsServer) await new Promise((resolve) => metricsServer.close(resolve));
      await ctx.changes.close();
      await waitForIdlePool(handle.db, startedStopping + config.shutdownGraceMs);
      await handle.close();
      logger.info('stopped');
    })());

  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ url: `http://localhost:${port}`, database: handle.kind }, `${config.site.name} is listening`);
  opts.onListening?.(`http://localhost:${port}/`);
  return { server, ctx, stop };
}

/**
 * Works the apps' jobs (apps/index.ts appJobs) in this process: pg-boss hands each job to one
 * process of any number, retries failures with backoff, and runs at this start the jobs whose
 * time came while no process was working. A failed job is logged by the queue.
 */
async function startJobWorkers(ctx: AppContext): Promise<void> {
  const t0 = Date.now();
  await ctx.jobs.start();
  for (const job of appJobs) await ctx.jobs.work(job.name, async (data) => void (await job.run(ctx, data)));
  ctx.logger.info({ jobs: appJobs.length, ms: Date.now() - t0 }, 'job queue started');
}

/**
 * Starts the job workers in the background, and again after a failure (the database away or
 * its connections cut while they start): the server serves meanwhile, and a queue that cannot
 * start yet is logged, never a reason to exit. Jobs wait in the database until then.
 */
function keepStartingJobWorkers(ctx: AppContext): { stop(): void } {
  let stopping = false;
  void (async () => {
    for (let delayMs = 1_000; !stopping; delayMs = Math.min(delayMs * 2, 30_000)) {
      try {
        await startJobWorkers(ctx);
        return;
      } catch (err) {
        if (stopping) return;
        ctx.logger.error({ err, retryInMs: delayMs }, 'the job queue could not start; trying again');
        await ctx.jobs.stop({ timeoutMs: 1_000 }).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
      }
    }
  })();
  return { stop: () => void (stopping = true) };
}

/** The process entry: signals stop the server; exit code 0 after a clean stop. */
export async function main(opts: StartOptions = {}): Promise<void> {
  // The signals are ours from the first moment: the server answers (listens) before its job
  // workers have started, and a SIGTERM in that window must stop it cleanly once it is up, not
  // kill it mid-request by the default action.
  let stopServer: (() => Promise<void>) | null = null;
  let signalled = false;
  const runStop = (stop: () => Promise<void>) =>
    stop().then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  const onSignal = () => {
    signalled = true;
    if (stopServer) runStop(stopServer);
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  try {
    const { stop, ctx } = await startServer(opts);
    // Once serving, a promise nobody awaited that rejects (a side task of a request, a library
    // that rethrows what it already reported, as connect-session-knex did) is logged, not a
    // reason to drop every member's requests in flight. Startup failures and uncaught
    // exceptions stay fatal: after those the process's state is unknown.
    process.on('unhandledRejection', (reason) => {
      ctx.logger.error({ err: reason }, 'unhandled promise rejection (logged; the process keeps serving)');
    });
    stopServer = stop;
    if (signalled) runStop(stop);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
    } else {
      console.error(err instanceof Error ? err.message : err);
    }
    process.exit(1);
  }
}

if (require.main === module) void main();
