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
  return startCluster((dataDir) => runAsOwner('initdb', ['-D', dataDir, '-U', OWNER, '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']).then(() => {}));
}

/** A hot standby of a scratch cluster: it serves reads of what it has replayed, and refuses writes. */
export interface ScratchStandby extends ScratchCluster {
  /** pg_wal_replay_pause(): the standby keeps answering from what it has, and falls behind. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** `pg_ctl stop -m fast`: its backends are terminated and its port refuses connections. */
  stop(): Promise<void>;
  /** How far it has replayed (pg_last_wal_replay_lsn(), as text). */
  replayLsn(): Promise<string>;
}

/**
 * A primary and a streaming hot standby of it, each on a free port: initdb (wal_level
 * replica, and initdb's pg_hba already trusts replication connections from 127.0.0.1), then
 * `pg_basebackup -R`, which copies the primary and writes the standby's primary_conninfo and
 * standby.signal. Both are stopped and removed again if any step fails.
 */
export async function startReplicatedClusters(): Promise<{ primary: ScratchCluster; standby: ScratchStandby; dispose(): Promise<void> }> {
  const primary = await startScratchCluster();
  try {
    const standby = await startCluster(
      (dataDir) =>
        runAsOwner('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', OWNER, '-D', dataDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync']).then(() => {}),
      ['hot_standby = on'],
    );
    const ask = async (sql: string): Promise<string> => {
      const client = new pg.Client({ connectionString: standby.url('postgres') });
      await client.connect();
      try {
        const { rows } = await client.query(sql);
        return String(Object.values(rows[0] ?? {})[0] ?? '');
      } finally {
        await client.end();
      }
    };
    return {
      primary,
      standby: {
        ...standby,
        pauseReplay: () => ask('select pg_wal_replay_pause()').then(() => {}),
        resumeReplay: () => ask('select pg_wal_replay_resume()').then(() => {}),
        stop: standby.stop,
        replayLsn: () => ask('select pg_last_wal_replay_lsn()::text'),
      },
      dispose: async () => {
        await standby.dispose();
        await primary.dispose();
      },
    };
  } catch (err) {
    await primary.dispose();
    throw err;
  }
}

/** A started cluster, with `stop` for the standby's sake. */
type StartedCluster = ScratchCluster & { stop(): Promise<void> };

/** Makes a data directory (`make`), gives it its own port and socket directory, and starts it. */
async function startCluster(make: (dataDir: string) => Promise<void>, settings: string[] = []): Promise<StartedCluster> {
  const unavailable = scratchClusterUnavailable();
  if (unavailable) throw new Error(`cannot make a PostgreSQL cluster: ${unavailable}`);
  const { uid, gid } = ownerIds()!;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'guide-pg-'));
  const dataDir = path.join(root, 'data');
  const logFile = path.join(root, 'server.log');
  const port = await freePort();
  let started = false;

  const stop = async () => {
    if (started) {
      started = false;
      await runAsOwner('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '60', 'stop']).catch(() => killPostmaster(dataDir));
    }
  };
  const dispose = async () => {
    if (started) {
      started = false;
      await runAsOwner('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', '-t', '60', 'stop']).catch(() => killPostmaster(dataDir));
    }
    fs.rmSync(root, { recursive: true, force: true });
  };

  try {
    fs.chownSync(root, uid, gid);
    await make(dataDir);
    // Its own port and socket directory, loopback only: nothing it shares with the main server
    // (appended, so they win over what a base backup copied from the primary).
    fs.appendFileSync(
      path.join(dataDir, 'postgresql.conf'),
      `\nport = ${port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${root}'\n${settings.map((s) => `${s}\n`).join('')}`,
    );
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
      started = true;
    },
    log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''),
    stop,
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
