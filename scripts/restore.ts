// npm run restore -- FILE [--force]: brings an archive of `npm run backup` back into the
// configured place: the database named by DATABASE_URL (which must be empty: create it first),
// or DATA_DIR's embedded database (PGlite; stop the server first), and DATA_DIR/media.
// It refuses a database or media directory that already holds something. With --force it
// replaces them: PostgreSQL's objects of the same names are dropped first (pg_restore --clean);
// the embedded database and the media are moved aside to *.before-restore-<time>, not deleted.
import fs from 'node:fs';
import path from 'node:path';
import knexFactory from 'knex';
import { loadConfig, type Config } from '../server/config';
import { acquireDataDirLock } from '../server/db/pglite-lock';
import { DUMP_FILE, MEDIA, holdsNoFile, readManifest, run, utcStamp, type DatabaseKind } from './backup/archive';
import { runCommand } from './command';

const USAGE = 'usage: restore FILE [--force]   (npm run restore -- FILE [--force])';

export interface RestoreArgs {
  file: string;
  force: boolean;
}

export function parseArgs(argv: string[]): RestoreArgs {
  const force = argv.includes('--force');
  const rest = argv.filter((a) => a !== '--force');
  if (rest.length !== 1 || rest[0].startsWith('-')) throw new Error(USAGE);
  return { file: path.resolve(rest[0]), force };
}

/** Restores the archive; answers what it did, one line per part. */
export async function restoreBackup(config: Config, args: RestoreArgs, now = new Date()): Promise<string[]> {
  if (!fs.existsSync(args.file)) throw new Error(`No such file: ${args.file}`);
  const target: DatabaseKind = config.databaseUrl ? 'postgres' : 'pglite';
  fs.mkdirSync(config.dataDir, { recursive: true });
  // The embedded database's lock first: nothing is touched while a server uses DATA_DIR.
  const release = target === 'pglite' ? acquireDataDirLock(config.dataDir) : () => {};
  // Unpacked inside DATA_DIR, so the media move into place by a rename on the same disk.
  const work = fs.mkdtempSync(path.join(config.dataDir, '.restore-'));
  try {
    await run('tar', ['--extract', '--gzip', '--file', args.file, '-C', work, '--no-same-owner']);
    const manifest = readManifest(work);
    if (manifest.database !== target) {
      throw new Error(
        manifest.database === 'pglite'
          ? 'This backup holds the embedded database (PGlite): restore it without DATABASE_URL, into DATA_DIR.'
          : 'This backup holds a PostgreSQL dump: set DATABASE_URL to an empty database to restore it.',
      );
    }
    const aside = `before-restore-${utcStamp(now)}`;
    const pgdata = path.join(config.dataDir, 'pglite');
    const hasMedia = fs.existsSync(path.join(work, MEDIA));

    // Every refusal before the first change.
    const dbInUse = target === 'postgres' ? !(await postgresIsEmpty(config.databaseUrl!)) : fs.existsSync(path.join(pgdata, 'PG_VERSION'));
    const mediaInUse = hasMedia && !holdsNoFile(config.mediaDir);
    if ((dbInUse || mediaInUse) && !args.force) {
      const what = [dbInUse && (target === 'postgres' ? 'the database at DATABASE_URL has tables' : `${pgdata} holds a database`), mediaInUse && `${config.mediaDir} holds files`].filter(Boolean);
      throw new Error(`Refusing to overwrite: ${what.join(' and ')}. Restore into an empty database and a fresh DATA_DIR, or pass --force to replace them.`);
    }

    const done: string[] = [];
    const dump = path.join(work, DUMP_FILE[target]);
    if (target === 'postgres') {
      const clean = dbInUse ? ['--clean', '--if-exists'] : [];
      await run('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', ...clean, '--dbname', config.databaseUrl!, dump]);
      done.push(`database restored into DATABASE_URL${dbInUse ? ' (its objects of the same names were replaced: --force)' : ''}`);
    } else {
      if (fs.existsSync(pgdata)) moveAside(pgdata, aside, done);
      await loadPglite(pgdata, dump).catch((err: unknown) => {
        fs.rmSync(pgdata, { recursive: true, force: true }); // no half-loaded directory to trip the next try
        throw err;
      });
      done.push(`database restored into ${pgdata}`);
    }
    if (hasMedia) {
      if (fs.existsSync(config.mediaDir)) moveAside(config.mediaDir, aside, done);
      fs.renameSync(path.join(work, MEDIA), config.mediaDir);
      done.push(`media restored into ${config.mediaDir}`);
    }
    return done;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    release();
  }
}

function moveAside(dir: string, suffix: string, done: string[]): void {
  fs.renameSync(dir, `${dir}.${suffix}`);
  done.push(`the previous ${dir} is now ${dir}.${suffix}`);
}

/** Empty: no table, view or sequence of ours in the public schema (extensions do not count). */
async function postgresIsEmpty(url: string): Promise<boolean> {
  const db = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  try {
    const { rows } = await db.raw<{ rows: { n: number }[] }>(
      `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
        WHERE s.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
          AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'e')`,
    );
    return rows[0].n === 0;
  } finally {
    await db.destroy();
  }
}

async function loadPglite(pgdata: string, dump: string): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const pglite = await PGlite.create({ dataDir: pgdata, loadDataDir: new Blob([fs.readFileSync(dump)]), extensions: { pg_trgm } });
  try {
    await pglite.query('SELECT 1'); // the loaded directory starts: it is a database
  } finally {
    await pglite.close();
  }
}

runCommand(module, async () => {
  const args = parseArgs(process.argv.slice(2));
  for (const line of await restoreBackup(loadConfig(), args)) console.log(line);
});
