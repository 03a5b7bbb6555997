import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { ROOT, sessionSecret, startProcess } from './measure';

/**
 * The site in production mode in its own process on `port`, over PostgreSQL at `databaseUrl`
 * or PGlite in `pgliteDir`, as the bench scripts run it: no rate limits (a bench is one
 * client), warnings only in the log, Server-Timing on (its per-request cost is in the figures).
 * BENCH_CPU_PROF=<dir>: node --cpu-prof writes the server's CPU profile there when it stops
 * (read it with `npx tsx scripts/bench/cpu-profile.ts <file>`).
 */
export function startBenchServer(opts: { port: number; databaseUrl?: string; pgliteDir?: string; serverDir?: string }): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (opts.pgliteDir) delete env.DATABASE_URL;
  return startProcess(
    // node refuses --cpu-prof in NODE_OPTIONS; tsx hands flags before the script to node.
    [...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : []), 'server/index.ts'],
    {
      ...env,
      NODE_ENV: 'production',
      ...(opts.pgliteDir ? { DATA_DIR: opts.pgliteDir } : { DATABASE_URL: opts.databaseUrl, DATA_DIR: `/tmp/guide-bench-${opts.port}` }),
      PORT: String(opts.port),
      HOST: '127.0.0.1',
      SESSION_SECRET: sessionSecret(),
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'false',
      SERVER_TIMING: 'true',
      // Another checkout's server resolves its packages from ours.
      ...(opts.serverDir ? { NODE_PATH: path.join(ROOT, 'node_modules') } : {}),
    },
    `http://127.0.0.1:${opts.port}`,
    opts.serverDir ?? ROOT,
  );
}
