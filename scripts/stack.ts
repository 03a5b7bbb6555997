// npm run stack: the production deployment on this machine — nginx (deploy/nginx.conf.template)
// in front of two `node dist/server/index.js` processes on PostgreSQL — as ops run it, for
// trying it out, the stack's test (test/stack/) and its benchmark (scripts/bench/deployment.ts).
//
//   npm run build && npm run stack                 a database `guide_stack` on 127.0.0.1:5432
//   npm run stack -- --seed                        seeds the demo city first when it is empty
//   STACK_DATABASE_URL=postgres://… npm run stack  any database (migrated at start)
//   STACK_PORT=8443 STACK_HTTP_PORT=8080 STACK_PROCESSES=2 npm run stack
//   npm run stack -- --edge varnish                 nginx (TLS) → Varnish with xkey (deploy/varnish.vcl) → node,
//                                                   purged by key after a change (docs/edge.md)
//
// nginx runs in the foreground (`daemon off`) with its config, pid, logs, temp files and cache
// in a directory of its own under the system's temp dir, so no root-owned directory is needed;
// TLS with a self-signed certificate made there (the app's cookies are Secure in production).
// Ctrl-C stops it all: nginx finishes what it is serving (SIGQUIT), each node process its
// requests in flight (SIGTERM, server/http/graceful-close.ts).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { freePort, freePortOutsideEphemeral } from '../server/testing/free-port';
import { rawRequest, type RawTextAnswer } from '../server/testing/raw-request';
import { startReplicatedClusters, type ScratchStandby } from '../server/testing/postgres-cluster';
import { withJemalloc } from './jemalloc';
import { startStackBucket, type StackBucket } from './stack-bucket';

const ROOT = path.resolve(__dirname, '..');
export const NGINX_TEMPLATE = path.join(ROOT, 'deploy', 'nginx.conf.template');
export const NGINX_PATH = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
export const SERVER_ENTRY = path.join(ROOT, 'dist', 'server', 'index.js');
const STATIC_DIR = path.join(ROOT, 'static');

export const nginxInstalled = (): boolean => fs.existsSync(NGINX_PATH);

export const VARNISH_VCL = path.join(ROOT, 'deploy', 'varnish.vcl');
export const VARNISHD_PATH = process.env.VARNISHD_PATH ?? '/usr/sbin/varnishd';
/** Where varnish-modules put xkey: Debian's multiarch directory (/usr/lib/x86_64-linux-gnu/varnish/vmods), or a build's. */
function xkeyVmod(): string | null {
  if (process.env.VARNISH_XKEY_VMOD) return fs.existsSync(process.env.VARNISH_XKEY_VMOD) ? process.env.VARNISH_XKEY_VMOD : null;
  let arches: string[] = [];
  try {
    arches = fs.readdirSync('/usr/lib').filter((d) => d.endsWith('-linux-gnu'));
  } catch {
    // no /usr/lib
  }
  const candidates = [...arches.map((a) => `/usr/lib/${a}/varnish/vmods`), '/usr/lib/varnish/vmods', '/usr/local/lib/varnish/vmods'].map((d) => path.join(d, 'libvmod_xkey.so'));
  return candidates.find((f) => fs.existsSync(f)) ?? null;
}
/** Varnish and the xkey module (Debian: apt-get install -y varnish varnish-modules). */
export const varnishInstalled = (): boolean => fs.existsSync(VARNISHD_PATH) && xkeyVmod() !== null;

/** The edge between nginx and the node processes: Varnish with xkey (deploy/varnish.vcl). */
export type StackEdge = 'varnish';

/**
 * nginx takes a process that failed once out for this long (open-source nginx has no active
 * health check): short, since a request that finds it still down is passed on at no cost.
 */
export const UPSTREAM_FAIL_TIMEOUT_S = 3;

export interface StackOptions {
  databaseUrl: string;
  /** Node processes behind nginx (default 2). */
  processes?: number;
  /** nginx's HTTPS port (default: a free one) and its plain-HTTP port, which redirects. */
  httpsPort?: number;
  httpPort?: number;
  /** Extra environment for the node processes (RATE_LIMITS, LOG_LEVEL…). */
  env?: Record<string, string>;
  /** nginx worker processes (default `auto`: one a core). */
  nginxWorkers?: number | 'auto';
  /** SESSION_SECRET shared by the processes (default: a random one). */
  sessionSecret?: string;
  /** Leave the run directory (logs, config) in place after stop(). */
  keepRunDir?: boolean;
  /** A run directory made by the caller, who removes it (startStackOn: s3rver's data is there too). */
  runDir?: string;
  /**
   * DATA_DIR shared by the processes (media and their renditions). The database's media live
   * there, so it goes with the database: stackDataDir(databaseUrl). Default: a new one in the
   * run directory, for a database without media of its own (the stack's test).
   */
  dataDir?: string;
  /**
   * An edge cache between nginx and the processes (default none: nginx's own micro-cache).
   * 'varnish': nginx → Varnish (deploy/varnish.vcl) → the processes, which purge it by key
   * (EDGE_PURGE_URL); nginx's cache is off.
   */
  edge?: StackEdge;
}

export interface StackProcess {
  /** INSTANCE_NAME, sent back as X-Instance: node-1, node-2… */
  name: string;
  port: number;
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
}

export interface Stack {
  /** nginx's HTTPS origin, also the app's SITE_URL. */
  url: string;
  httpsPort: number;
  httpPort: number;
  /** The self-signed certificate clients must trust. */
  ca: Buffer;
  runDir: string;
  processes: StackProcess[];
  nginx: ChildProcess;
  /** Varnish (edge: 'varnish'): its plain-HTTP origin on 127.0.0.1, the processes' EDGE_PURGE_URL. */
  edge: { kind: StackEdge; url: string; port: number; child: ChildProcess } | null;
  /** Every line nginx and the node processes wrote so far, and nginx's error log. */
  logs(): string;
  /** Stops processes[index] (SIGTERM, graceful), starts it again on its port, waits until nginx uses it again. */
  restart(index: number): Promise<void>;
  stop(): Promise<void>;
}

/** Fills the template's {{NAME}} placeholders; a placeholder left over is an error. */
export function renderNginxConfig(template: string, values: Record<string, string>): string {
  const out = template.replace(/\{\{([A-Z_]+)\}\}/g, (whole, name: string) => {
    if (!(name in values)) throw new Error(`nginx template: no value for ${whole}`);
    return values[name];
  });
  return out;
}

/** GET over HTTPS trusting the stack's certificate; status and headers, or the error. */
export function stackGet(stack: Pick<Stack, 'url' | 'ca'>, pathname: string, headers: Record<string, string> = {}): Promise<RawTextAnswer> {
  return rawRequest(stack.url + pathname, { ca: stack.ca, headers });
}

async function waitFor(what: string, check: () => Promise<boolean>, alive: () => boolean, timeoutMs: number, logs: () => string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (!alive()) throw new Error(`${what} exited while starting:\n${logs()}`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${what} did not come up within ${timeoutMs / 1000} s:\n${logs()}`);
}

function healthy(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok);
}

function stopChild(child: ChildProcess, exited: Promise<unknown>, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  return exited.then(() => clearTimeout(timer));
}

/** Starts the node processes, waits until each is healthy, then nginx in front of them. */
export async function startStack(opts: StackOptions): Promise<Stack> {
  if (!nginxInstalled()) throw new Error(`nginx is not installed at ${NGINX_PATH} (apt-get install -y nginx)`);
  if (!fs.existsSync(SERVER_ENTRY)) throw new Error(`${path.relative(ROOT, SERVER_ENTRY)} is missing: run \`npm run build\` first`);
  if (opts.edge === 'varnish' && !varnishInstalled()) throw new Error(`Varnish with xkey is not installed (${VARNISHD_PATH}, libvmod_xkey.so): apt-get install -y varnish varnish-modules`);
  const ownRunDir = !opts.runDir;
  const runDir = opts.runDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'guide-stack-'));
  const removeRunDir = () => {
    if (ownRunDir && !opts.keepRunDir) fs.rmSync(runDir, { recursive: true, force: true });
  };
  const dataDir = opts.dataDir ?? path.join(runDir, 'data'); // shared by the processes: media and their renditions
  fs.mkdirSync(dataDir, { recursive: true });
  let log = '';
  const append = (prefix: string) => (chunk: Buffer) => {
    log += chunk.toString().replace(/^(?=.)/gm, `[${prefix}] `);
    if (log.length > 2_000_000) log = log.slice(-1_000_000);
  };
  const logs = () => {
    let errors = '';
    try {
      errors = fs.readFileSync(path.join(runDir, 'error.log'), 'utf8');
    } catch {
      // not written yet
    }
    return `${log}${errors ? `\n[nginx error.log]\n${errors}` : ''}`;
  };

  // A certificate for 127.0.0.1 and localhost, valid a month.
  const cert = path.join(runDir, 'tls.crt');
  const key = path.join(runDir, 'tls.key');
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '30', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'pipe' });
  } catch (err) {
    removeRunDir();
    throw new Error(`could not make the stack's TLS certificate with openssl (apt-get install -y openssl): ${(err as Error).message}`);
  }

  // nginx binds these last, after the node processes and the edge have made connections of
  // their own: ports outside the outgoing range, so none of those can have taken them.
  const httpsPort = opts.httpsPort ?? (await freePortOutsideEphemeral());
  const httpPort = opts.httpPort ?? (await freePortOutsideEphemeral());
  const url = `https://127.0.0.1:${httpsPort}`;
  const sessionSecret = opts.sessionSecret ?? crypto.randomBytes(48).toString('base64url'); // the same for every process
  const processes: StackProcess[] = [];
  let nginx: ChildProcess | undefined;
  let nginxExited: Promise<unknown> = Promise.resolve();
  const edgePort = opts.edge ? await freePortOutsideEphemeral() : null;
  const edgeUrl = edgePort ? `http://127.0.0.1:${edgePort}` : null;
  let varnish: ChildProcess | undefined;
  let varnishExited: Promise<unknown> = Promise.resolve();

  const startProcess = (name: string, port: number): StackProcess => {
    // With jemalloc preloaded when it is installed (scripts/jemalloc.ts: photo uploads' memory
    // goes back to the system); MALLOC=system keeps glibc's.
    const env: NodeJS.ProcessEnv = withJemalloc({
      ...process.env,
      NODE_OPTIONS: '', // not jest's --experimental-vm-modules
      NODE_ENV: 'production',
      HOST: '127.0.0.1', // only nginx reaches the processes
      PORT: String(port),
      DATABASE_URL: opts.databaseUrl,
      DATA_DIR: dataDir,
      SESSION_SECRET: sessionSecret,
      SITE_URL: url,
      TRUST_PROXY: 'loopback', // X-Forwarded-* from nginx on this machine only
      INSTANCE_NAME: name,
      LOG_LEVEL: 'warn',
      // The edge to purge by key after a change (server/http/edge-purge.ts).
      ...(edgeUrl ? { EDGE_PURGE_URL: `${edgeUrl}/` } : {}),
      ...opts.env,
    });
    const child = spawn(process.execPath, [SERVER_ENTRY], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', append(name));
    child.stderr!.on('data', append(name));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { name, port, child, exited, output: logs };
  };
  const isRunning = (p: StackProcess) => p.child.exitCode === null && p.child.signalCode === null;

  // A deploy: each process in turn is stopped (SIGTERM: it finishes its requests in flight while
  // nginx sends new ones to the others) and started again on its port. nginx marked it failed
  // while it was down: restart() returns once it is healthy and nginx sends it requests again
  // (fail_timeout later), so the next process may go. Sooner, nginx would have none left: 502.
  const restart = async (index: number) => {
    const old = processes[index];
    await stopChild(old.child, old.exited, 'SIGTERM', 12_000);
    const fresh = startProcess(old.name, old.port);
    processes[index] = fresh;
    await waitFor(fresh.name, () => healthy(fresh.port), () => isRunning(fresh), 120_000, logs);
    await new Promise((r) => setTimeout(r, UPSTREAM_FAIL_TIMEOUT_S * 1000 + 500));
  };

  const stop = async () => {
    // nginx first (SIGQUIT: it finishes what it is serving), then the edge, then the processes behind it.
    if (nginx) await stopChild(nginx, nginxExited, 'SIGQUIT', 10_000);
    if (varnish) await stopChild(varnish, varnishExited, 'SIGTERM', 10_000);
    await Promise.all(processes.map((p) => stopChild(p.child, p.exited, 'SIGTERM', 12_000)));
    removeRunDir();
  };

  try {
    for (let i = 1; i <= (opts.processes ?? 2); i++) {
      const port = await freePort();
      processes.push(startProcess(`node-${i}`, port));
    }
    // Started together: migrations take a lock, so the second waits for the first.
    await Promise.all(processes.map((p) => waitFor(p.name, () => healthy(p.port), () => isRunning(p), 120_000, logs)));

    if (edgePort) {
      // Varnish in the foreground, its work directory in the run directory, the processes as
      // its backends (guide-backends.vcl, included by deploy/varnish.vcl), its compiler and
      // workers as this user (-j none: a root CI container's `vcache` cannot read the run dir).
      const backends = processes.map((p, i) => `backend node_${i + 1} { .host = "127.0.0.1"; .port = "${p.port}"; .probe = guide_health; }`);
      const adds = processes.map((_p, i) => `  guide_nodes.add_backend(node_${i + 1});`);
      fs.writeFileSync(path.join(runDir, 'guide-backends.vcl'), `${backends.join('\n')}\nsub vcl_init {\n  new guide_nodes = directors.round_robin();\n${adds.join('\n')}\n}\n`);
      const args = ['-F', '-j', 'none', '-a', `127.0.0.1:${edgePort}`, '-T', '127.0.0.1:0', '-f', VARNISH_VCL, '-p', `vcl_path=${runDir}:${path.dirname(VARNISH_VCL)}`, '-n', path.join(runDir, 'varnish'), '-s', 'malloc,256m'];
      const started = spawn(VARNISHD_PATH, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      varnish = started;
      started.stdout!.on('data', append('varnish'));
      started.stderr!.on('data', append('varnish'));
      varnishExited = new Promise((resolve) => started.once('exit', resolve));
      await waitFor('varnish', () => fetch(`${edgeUrl}/healthz`).then((r) => r.ok), () => started.exitCode === null && started.signalCode === null, 30_000, logs);
    }

    const template = fs.readFileSync(NGINX_TEMPLATE, 'utf8');
    const config = renderNginxConfig(template, {
      WORKER_PROCESSES: String(opts.nginxWorkers ?? 'auto'),
      RUN_DIR: runDir,
      MIME_TYPES: '/etc/nginx/mime.types',
      // With an edge, nginx passes everything to it (Varnish balances the processes, with its probes).
      UPSTREAM_SERVERS: edgePort
        ? `    server 127.0.0.1:${edgePort};`
        : processes.map((p) => `    server 127.0.0.1:${p.port} max_fails=1 fail_timeout=${UPSTREAM_FAIL_TIMEOUT_S}s;`).join('\n'),
      PROXY_CACHE: edgePort ? 'off' : 'guide_guests',
      LISTEN_HOST: '127.0.0.1',
      HTTP_PORT: String(httpPort),
      HTTPS_PORT: String(httpsPort),
      SITE_URL: url,
      TLS_CERT: cert,
      TLS_KEY: key,
      STATIC_DIR,
    });
    // Run as root (a CI container), nginx's workers would be `nobody`, who cannot enter this
    // private run directory: they stay root there. A server runs them as www-data.
    const conf = path.join(runDir, 'nginx.conf');
    fs.writeFileSync(conf, (process.getuid?.() === 0 ? 'user root;\n' : '') + config);
    execFileSync(NGINX_PATH, ['-t', '-q', '-p', runDir, '-e', path.join(runDir, 'error.log'), '-c', conf], { stdio: 'pipe' });
    const started = spawn(NGINX_PATH, ['-p', runDir, '-e', path.join(runDir, 'error.log'), '-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
    nginx = started;
    started.stdout!.on('data', append('nginx'));
    started.stderr!.on('data', append('nginx'));
    nginxExited = new Promise((resolve) => started.once('exit', resolve));
    const ca = fs.readFileSync(cert);
    await waitFor('nginx', () => stackGet({ url, ca }, '/healthz').then((r) => r.status === 200), () => started.exitCode === null && started.signalCode === null, 20_000, logs);
    const edge = varnish && edgeUrl && edgePort ? { kind: 'varnish' as const, url: edgeUrl, port: edgePort, child: varnish } : null;
    return { url, httpsPort, httpPort, ca, runDir, processes, nginx: started, edge, logs, restart, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Creates the database when it does not exist (its server's `postgres` database must be reachable). */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const admin = knexFactory({ client: 'pg', connection: url.toString(), pool: { min: 0, max: 1 } });
  try {
    const { rows } = await admin.raw('select 1 from pg_database where datname = ?', [name]);
    if (rows.length) return false;
    await admin.raw('create database ??', [name]);
    return true;
  } finally {
    await admin.destroy();
  }
}

/**
 * The media directory that belongs with a database: the seed writes the demo city's pictures
 * there and the processes serve them from it. Kept between runs, as the database is
 * (STACK_DATA_DIR overrides it).
 */
export function stackDataDir(databaseUrl: string): string {
  if (process.env.STACK_DATA_DIR) return path.resolve(process.env.STACK_DATA_DIR);
  const name = new URL(databaseUrl).pathname.replace(/^\//, '').replace(/[^A-Za-z0-9_-]/g, '_') || 'default';
  return path.join(os.tmpdir(), 'guide-stack-data', name);
}

/**
 * Seeds the demo city (scripts/seed.ts, through tsx: it reads its data files from
 * scripts/seed/data) when the database has no content yet, its pictures into dataDir.
 */
export async function seedWhenEmpty(databaseUrl: string, dataDir: string = stackDataDir(databaseUrl)): Promise<boolean> {
  const db = knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 1 } });
  let seeded = false;
  try {
    const { rows } = await db.raw(`select to_regclass('neighbourhoods') is not null as migrated`);
    if (rows[0].migrated) seeded = Boolean((await db('neighbourhoods').first('id')));
  } finally {
    await db.destroy();
  }
  if (seeded) return false;
  execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', 'seed.ts')], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'inherit',
  });
  return true;
}

export const DEFAULT_STACK_DATABASE = 'postgres://root@127.0.0.1:5432/guide_stack';

/** The database name on the stack's own primary (--replica). */
export const STACK_CLUSTER_DATABASE = 'guide_stack';

export interface StackOnOptions extends Omit<StackOptions, 'databaseUrl' | 'dataDir' | 'runDir'> {
  /** Media in an S3 bucket: s3rver under the run directory, or STACK_S3_* (scripts/stack-bucket.ts). */
  s3: boolean;
  /** Reads from a hot standby: a primary + standby pair of its own, or replicaUrl. */
  replica: boolean;
  /** Seed the demo city when the database is empty (always done on a pair of its own, which starts empty). */
  seed: boolean;
  /** The database (the primary) when it has no pair of its own (default STACK_DATABASE_URL, else guide_stack on 5432). */
  databaseUrl?: string;
  /** An existing streaming replica of databaseUrl (default STACK_DATABASE_REPLICA_URL); unset: a pair of its own. */
  replicaUrl?: string;
  /** Aborting stops the start between steps, and removes what it made. */
  signal?: AbortSignal;
  log?: (line: string) => void;
}

export interface StackOn extends Stack {
  /** DATABASE_URL of the processes (the primary). */
  databaseUrl: string;
  /** DATABASE_REPLICA_URL of the processes, or null. */
  replicaUrl: string | null;
  /** The media bucket (--s3), or null: media on disk in dataDir. */
  bucket: StackBucket | null;
  /** DATA_DIR of the processes (with --s3 it stays empty: media are read from the bucket). */
  dataDir: string;
  /** The hot standby of a pair of its own (--replica without replicaUrl), to pause its replay in a test; else null. */
  standby: ScratchStandby | null;
  /** What runs where, a line each. */
  where: string[];
}

const withoutPassword = (url: string) => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1@');

/**
 * The stack on object storage and/or a read replica: starts what the flags ask for (the bucket
 * with the media copied in, the primary + standby pair), then nginx and the node processes on
 * them. stop() stops and removes all of it, in reverse; so does a failed or aborted start.
 */
export async function startStackOn(opts: StackOnOptions): Promise<StackOn> {
  const log = opts.log ?? (() => {});
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guide-stack-'));
  const undo: Array<() => Promise<void>> = [];
  const cleanUp = async () => {
    for (const step of undo.reverse()) await step().catch((err: Error) => console.error(`stopping the stack: ${err.message}`));
    if (!opts.keepRunDir) fs.rmSync(runDir, { recursive: true, force: true });
  };
  const where: string[] = [];
  try {
    const checkAbort = () => opts.signal?.throwIfAborted();
    let databaseUrl: string;
    let replicaUrl: string | null = null;
    let standby: ScratchStandby | null = null;
    let mediaDir: string; // where the database's media are on disk
    const existingReplica = opts.replicaUrl ?? process.env.STACK_DATABASE_REPLICA_URL;
    if (opts.replica && !existingReplica) {
      log('starting a PostgreSQL primary and a hot standby of it (initdb, pg_basebackup -R)');
      const pair = await startReplicatedClusters();
      undo.push(() => pair.dispose());
      await pair.primary.createDatabase(STACK_CLUSTER_DATABASE);
      databaseUrl = pair.primary.url(STACK_CLUSTER_DATABASE);
      replicaUrl = pair.standby.url(STACK_CLUSTER_DATABASE);
      standby = pair.standby;
      mediaDir = path.join(runDir, 'seed-data');
      checkAbort();
      log('seeding the demo city on the primary');
      await seedWhenEmpty(databaseUrl, mediaDir);
      where.push(`PostgreSQL primary: ${databaseUrl} (a cluster of its own, removed at stop)`, `PostgreSQL hot standby: ${replicaUrl} (DATABASE_REPLICA_URL)`);
    } else {
      databaseUrl = opts.databaseUrl ?? process.env.STACK_DATABASE_URL ?? DEFAULT_STACK_DATABASE;
      if (await ensureDatabase(databaseUrl)) log(`created the database ${withoutPassword(databaseUrl)}`);
      mediaDir = stackDataDir(databaseUrl);
      if (opts.seed && (await seedWhenEmpty(databaseUrl, mediaDir))) log('seeded the demo city');
      where.push(`PostgreSQL: ${withoutPassword(databaseUrl)}`);
      if (opts.replica) {
        replicaUrl = existingReplica!;
        where.push(`PostgreSQL replica: ${withoutPassword(replicaUrl)} (STACK_DATABASE_REPLICA_URL)`);
      }
    }
    checkAbort();

    const env: Record<string, string> = { ...opts.env };
    let dataDir = mediaDir;
    let bucket: StackBucket | null = null;
    if (opts.s3) {
      const b = await startStackBucket(runDir);
      bucket = b;
      undo.push(() => b.stop());
      const copied = await b.copyMedia(mediaDir);
      const what = b.s3rverDir ? `s3rver at ${b.settings.endpoint}, data in ${b.s3rverDir}` : `${b.settings.endpoint ?? `AWS ${b.settings.region}`}`;
      where.push(
        `media: s3://${b.settings.bucket} (${what}); ${copied.originals.copied} files copied from ${path.join(mediaDir, 'media')}, ${copied.originals.skipped} already there${copied.renditions ? `, ${copied.renditions.copied} renditions` : ''}`,
      );
      // The processes' DATA_DIR holds no media: every picture comes from the bucket.
      dataDir = path.join(runDir, 'data');
      Object.assign(env, b.env);
    } else {
      where.push(`media: ${path.join(mediaDir, 'media')} (on disk)`);
    }
    if (replicaUrl) env.DATABASE_REPLICA_URL = replicaUrl;
    checkAbort();

    const stack = await startStack({ ...opts, databaseUrl, dataDir, runDir, env });
    return {
      ...stack,
      databaseUrl,
      replicaUrl,
      bucket,
      dataDir,
      standby,
      where,
      async stop() {
        await stack.stop();
        await cleanUp();
      },
    };
  } catch (err) {
    await cleanUp();
    throw err;
  }
}

const FLAGS = ['--seed', '--s3', '--replica', '--edge varnish'];

/** `--edge varnish` (or `--edge=varnish`) taken out of the arguments; the rest are flags. */
function edgeArgument(args: string[]): { edge: StackEdge | undefined; rest: string[] } {
  const rest: string[] = [];
  let edge: StackEdge | undefined;
  for (let i = 0; i < args.length; i++) {
    const value = args[i] === '--edge' ? args[++i] : args[i].startsWith('--edge=') ? args[i].slice('--edge='.length) : null;
    if (value === null) rest.push(args[i]);
    else if (value === 'varnish') edge = value;
    else throw new Error(`Unknown edge ${value ?? '(none)'} (expected --edge varnish)`);
  }
  return { edge, rest };
}

async function main(): Promise<void> {
  const { edge, rest: args } = edgeArgument(process.argv.slice(2));
  const unknown = args.filter((a) => !FLAGS.includes(a));
  if (unknown.length) throw new Error(`Unknown argument ${unknown[0]} (expected ${FLAGS.join(', ')})`);
  const options = {
    edge,
    processes: Number(process.env.STACK_PROCESSES ?? 2),
    httpsPort: Number(process.env.STACK_PORT ?? 8443),
    httpPort: Number(process.env.STACK_HTTP_PORT ?? 8080),
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' },
  };
  let stack: Stack;
  if (args.includes('--s3') || args.includes('--replica')) {
    // Ctrl-C while it starts: what was started so far is stopped and removed.
    const abort = new AbortController();
    const onEarlySignal = () => abort.abort(new Error('interrupted while starting: everything started so far was stopped and removed'));
    process.once('SIGINT', onEarlySignal);
    process.once('SIGTERM', onEarlySignal);
    const on = await startStackOn({ ...options, s3: args.includes('--s3'), replica: args.includes('--replica'), seed: args.includes('--seed'), signal: abort.signal, log: (line) => console.log(line) });
    process.off('SIGINT', onEarlySignal);
    process.off('SIGTERM', onEarlySignal);
    if (abort.signal.aborted) {
      await on.stop();
      throw abort.signal.reason;
    }
    console.log('');
    for (const line of on.where) console.log(line);
    stack = on;
  } else {
    const databaseUrl = process.env.STACK_DATABASE_URL ?? DEFAULT_STACK_DATABASE;
    if (await ensureDatabase(databaseUrl)) console.log(`created the database ${databaseUrl.replace(/\/\/[^@]*@/, '//')}`);
    if (args.includes('--seed') && (await seedWhenEmpty(databaseUrl))) console.log('seeded the demo city');
    stack = await startStack({ ...options, databaseUrl, dataDir: stackDataDir(databaseUrl) });
  }
  console.log(`\nThe stack is up: ${stack.url}/ (self-signed certificate: ${path.join(stack.runDir, 'tls.crt')})`);
  console.log(`nginx pid ${stack.nginx.pid}, config ${path.join(stack.runDir, 'nginx.conf')}, logs in ${stack.runDir}`);
  if (stack.edge) console.log(`varnish pid ${stack.edge.child.pid}, ${stack.edge.url} (deploy/varnish.vcl; the processes purge it by key: EDGE_PURGE_URL)`);
  for (const p of stack.processes) console.log(`${p.name}: pid ${p.child.pid}, http://127.0.0.1:${p.port}`);
  console.log(`Ctrl-C stops it; \`kill -HUP ${process.pid}\` restarts the node processes one by one (a deploy).`);
  let stopping = false;
  let restarting = false;
  const onSignal = () => {
    if (stopping) return;
    stopping = true;
    console.log(`\nstopping: nginx, ${stack.edge ? 'varnish, ' : ''}then the node processes`);
    stack.stop().then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  // Each process's own log, as it comes; one that dies on its own takes the stack down, loudly.
  const watch = (child: ChildProcess, name: string) => {
    child.stdout?.pipe(process.stdout);
    child.stderr?.pipe(process.stderr);
    child.once('exit', (code, signal) => {
      if (stopping || restarting) return;
      console.error(`${name} exited (${code ?? signal}); stopping the rest`);
      onSignal();
    });
  };
  for (const p of stack.processes) watch(p.child, p.name);
  stack.nginx.once('exit', (code, signal) => {
    if (stopping) return;
    console.error(`nginx exited (${code ?? signal}); stopping the rest`);
    onSignal();
  });
  stack.edge?.child.once('exit', (code, signal) => {
    if (stopping) return;
    console.error(`varnish exited (${code ?? signal}); stopping the rest`);
    onSignal();
  });
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.on('SIGHUP', () => {
    if (stopping || restarting) return;
    restarting = true;
    void (async () => {
      for (let i = 0; i < stack.processes.length; i++) {
        await stack.restart(i);
        const p = stack.processes[i];
        watch(p.child, p.name);
        console.log(`${p.name} restarted: pid ${p.child.pid}`);
      }
    })().then(
      () => (restarting = false),
      (err) => {
        console.error(err);
        restarting = false;
        onSignal();
      },
    );
  });
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
