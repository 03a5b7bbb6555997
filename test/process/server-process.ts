import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { freePort } from '../../server/testing/free-port';
import { rawRequest, type RawRequestOptions, type RawTextAnswer } from '../../server/testing/raw-request';

// The real server process (`server/index.ts` through tsx), as an operator runs it, for tests
// of what only a process does: signals, exit codes, surviving what would kill it.

const root = path.resolve(__dirname, '..', '..');

export interface ServerProcess {
  port: number;
  child: ChildProcess;
  /** The exit code (null if killed by a signal). */
  exited: Promise<number | null>;
  /** Its stdout (pino's JSON lines) and stderr so far. */
  output(): string;
  /** PGlite's data directory (embedded database only). */
  dataDir: string;
  /** Kills it if still running and removes its data directory. */
  dispose(): Promise<void>;
}

export type Answer = RawTextAnswer;

/** One request with no connection reuse unless an agent is given. */
export function httpRequest(port: number, pathname: string, opts: Omit<RawRequestOptions, 'ca'> = {}): Promise<Answer> {
  return rawRequest(`http://127.0.0.1:${port}${pathname}`, opts);
}

/**
 * Starts the server on a free port and waits until /healthz answers 200. With `databaseUrl`
 * it runs on PostgreSQL, otherwise on PGlite in a fresh data directory.
 */
export async function startServerProcess(opts: { databaseUrl?: string; env?: Record<string, string> } = {}): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guide-process-'));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'development', LOG_LEVEL: 'warn', RATE_LIMITS: 'false', NODE_OPTIONS: '', ...opts.env };
  delete env.DATABASE_URL;
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  // `node --import tsx`, not the tsx command: that one runs the server in a child of its own
  // and, when the child is slow to confirm a relayed SIGTERM (30 ms; it is, under load),
  // SIGKILLs it.
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve((exitCode = code))));
  const proc: ServerProcess = {
    port,
    child,
    exited,
    output: () => output,
    dataDir,
    async dispose() {
      if (exitCode === undefined) {
        child.kill('SIGKILL');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  for (let attempt = 0; attempt < 600 && exitCode === undefined; attempt++) {
    const up = await httpRequest(port, '/healthz').then((r) => r.status === 200, () => false);
    if (up) return proc;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await proc.dispose();
  throw new Error(`the server did not come up:\n${output}`);
}

/** Signs up a new member through the API: the cookies that make a request theirs, and the CSRF token. */
export async function signUp(port: number): Promise<{ cookie: string; csrfToken: string; email: string }> {
  const csrfToken = crypto.randomBytes(32).toString('base64url');
  const email = `process-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const res = await httpRequest(port, '/api/v2/profiles/email-registration/', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: `csrftoken=${csrfToken}`, 'X-CSRFToken': csrfToken },
    body: JSON.stringify({ email, password: 'correct horse battery staple' }),
  });
  if (res.status !== 201) throw new Error(`sign-up answered ${res.status}: ${res.body}`);
  const session = (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).find((c) => c.startsWith('sessionid='));
  if (!session) throw new Error('sign-up set no session cookie');
  return { cookie: `csrftoken=${csrfToken}; ${session}`, csrfToken, email };
}
