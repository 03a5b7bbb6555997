// npm run backup [-- DIR]: one archive of the database and the media in DIR (else BACKUP_DIR,
// else ./backups), named guide-backup-<UTC time>.tar.gz. PostgreSQL (DATABASE_URL) is dumped by
// pg_dump, a consistent snapshot while the server runs. The embedded database (PGlite, DATA_DIR)
// is dumped by PGlite itself, which needs the data directory to itself: stop the server first
// (the lock refuses otherwise). Restore with `npm run restore -- FILE`.
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../server/config';
import { openDatabase } from '../server/db';
import { DUMP_FILE, MANIFEST, MEDIA, run, utcStamp, type Manifest } from './backup/archive';
import { runCommand } from './command';

const USAGE = 'usage: backup [DIR]   (npm run backup -- DIR; default BACKUP_DIR, else ./backups)';

export function parseArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): { outDir: string } {
  if (argv.length > 1 || argv.some((a) => a.startsWith('-'))) throw new Error(USAGE);
  return { outDir: path.resolve(argv[0] ?? (env.BACKUP_DIR || 'backups')) };
}

/** Writes the archive and answers its path. */
export async function createBackup(config: Config, outDir: string, now = new Date()): Promise<string> {
  const database = config.databaseUrl ? 'postgres' : 'pglite';
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `guide-backup-${utcStamp(now)}.tar.gz`);
  if (fs.existsSync(file)) throw new Error(`${file} already exists.`);
  // The dump is staged beside the archive (the same disk, which the archive needs anyway).
  const staging = fs.mkdtempSync(path.join(outDir, '.backup-'));
  const partial = `${file}.partial`;
  try {
    const dumpFile = path.join(staging, DUMP_FILE[database]);
    if (config.databaseUrl) {
      // Owners and grants are left out, so the dump restores under another role.
      await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', '--file', dumpFile, '--dbname', config.databaseUrl]);
    } else {
      await dumpPglite(config.dataDir, dumpFile);
    }
    const manifest: Manifest = { format: 'guide-backup', version: 1, createdAt: now.toISOString(), database };
    fs.writeFileSync(path.join(staging, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
    // The media after the database: every file a dumped row names is there (an upload still
    // being written is a *.tmp file, left out). A file deleted in between would be missing.
    // (config.mediaDir is DATA_DIR/media.)
    const media = fs.existsSync(config.mediaDir) ? ['-C', path.dirname(config.mediaDir), MEDIA] : [];
    await run('tar', ['--create', '--gzip', '--file', partial, '--exclude=*.tmp', '-C', staging, MANIFEST, DUMP_FILE[database], ...media]);
    fs.renameSync(partial, file);
    return file;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(partial, { force: true });
  }
}

async function dumpPglite(dataDir: string, dumpFile: string): Promise<void> {
  const pgdata = path.join(dataDir, 'pglite');
  // Opening a missing directory would create an empty database: say so instead.
  if (!fs.existsSync(path.join(pgdata, 'PG_VERSION'))) throw new Error(`No embedded database in ${pgdata} (is DATA_DIR right? Or set DATABASE_URL).`);
  const handle = await openDatabase({ dataDir }); // takes DATA_DIR's lock: refused while the server runs
  try {
    const pglite = (await handle.db.client.acquireConnection()) as { dumpDataDir(c: 'gzip'): Promise<Blob> };
    try {
      fs.writeFileSync(dumpFile, Buffer.from(await (await pglite.dumpDataDir('gzip')).arrayBuffer()));
    } finally {
      await handle.db.client.releaseConnection(pglite);
    }
  } finally {
    await handle.close();
  }
}

runCommand(module, async () => {
  const { outDir } = parseArgs(process.argv.slice(2));
  const file = await createBackup(loadConfig(), outDir);
  console.log(`${file} (${(fs.statSync(file).size / 1e6).toFixed(1)} MB)`);
});
