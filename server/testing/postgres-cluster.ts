import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port';

// A PostgreSQL cluster of a test's own (initdb in a temporary directory, on a free port), for
// what the shared server on 5432 must never be put through: a restart under load. initdb and
// the server refuse to run as root, so they run as the `postgres` user through runuser, which
// needs root (CI and these machines run as root).

export const POSTGRES_BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';
const OWNER = 'postgres';

export interface ScratchCluster {
  port: number;
  /** A connection URL to one of its databases (trust authentication, as the postgres user). */
  url(database: string): string;
  /** Creates an empty database. */
  createDatabase(name: string): Promise<void>;
  /** `pg_ctl restart -m fast`: resolves once the new server accepts connections. */
  restart(): Promise<void>;
  /** The server's log so far. */
  log(): string;
  /** Stops the server (if it runs) and removes its directory; safe to call more than once. */
  dispose(): Promise<void>;
}

/** Why a scratch cluster cannot be made here, or null when it can. */
export function scratchClusterUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'not running as root (initdb runs as the postgres user through runuser, which needs root)';
  if (!fs.existsSync(path.join(POSTGRES_BIN, 'initdb'))) return `initdb is not installed at ${POSTGRES_BIN} (apt-get install -y postgresql)`;
  if (ownerIds() === null) return `there is no ${OWNER} user (apt-get install -y postgresql makes it)`;
  return null;
}

function ownerIds(): { uid: number; gid: number } | null {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${OWNER}:`));
  if (!line) return null;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Runs a PostgreSQL program as the postgres user; rejects with its output when it fails. */
function runAsOwner(program: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    // stdin closed and the exit awaited, not the pipes' end: a postmaster pg_ctl starts must
    // not hold them (it writes to its own log file).
    const child = spawn('runuser', ['-u', OWNER, '--', path.join(POSTGRES_BIN, program), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${program} ${args.join(' ')} exited ${code}:\n${output}`))));
  });
}

/** initdb, configure and start a cluster; everything is removed again if any step fails. */
export async function startScratchCluster(): Promise<ScratchCluster> {
  const unavailable = scratchClusterUnavailable();
  if (unavailable) throw new Error(`cannot make a PostgreSQL cluster: ${unavailable}`);
  const { uid, gid } = ownerIds()!;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'guide-pg-'));
  const dataDir = path.join(root, 'data');
  const logFile = path.join(root, 'server.log');
  const port = await freePort();
  let started = false;

  const dispose = async () => {
    if (started) {
      started = false;
      await runAsOwner('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', '-t', '60', 'stop']).catch(() => killPostmaster(dataDir));
    }
    fs.rmSync(root, { recursive: true, force: true });
  };

  try {
    fs.chownSync(root, uid, gid);
    await runAsOwner('initdb', ['-D', dataDir, '-U', OWNER, '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
    // Its own port and socket directory, loopback only: nothing it shares with the main server.
    fs.appendFileSync(path.join(dataDir, 'postgresql.conf'), `\nport = ${port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${root}'\n`);
    started = true;
    await runAsOwner('pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '60', 'start']);
  } catch (err) {
    await dispose();
    throw err;
  }

  const url = (database: string) => `postgres://${OWNER}@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      } finally {
        await client.end();
      }
    },
    async restart() {
      await runAsOwner('pg_ctl', ['-D', dataDir, '-l', logFile, '-m', 'fast', '-w', '-t', '60', 'restart']);
    },
    log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''),
    dispose,
  };
}

/** When pg_ctl cannot stop it: the postmaster's pid from its pid file, SIGKILLed. */
function killPostmaster(dataDir: string): void {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (pid > 0) process.kill(pid, 'SIGKILL');
  } catch {
    // not running
  }
}
