import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './measure';

/**
 * `npm run seed` in its own process (as a newcomer seeds it: migrations, then the demo) into a
 * PGlite directory or a PostgreSQL database. The seed's own lines go nowhere but its errors to
 * stderr. Answers how long it took, in seconds.
 */
export async function runDemoSeed(target: { dataDir: string } | { databaseUrl: string }): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  if ('dataDir' in target) {
    // PGlite in DATA_DIR, not a server a DATABASE_URL in the environment would name.
    delete env.DATABASE_URL;
    env.DATA_DIR = target.dataDir;
  } else env.DATABASE_URL = target.databaseUrl;
  const t0 = Date.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['scripts/seed.ts'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`npm run seed into ${'dataDir' in target ? target.dataDir : 'the database'} exited with ${code}`))));
  });
  return (Date.now() - t0) / 1000;
}

/**
 * A fresh PGlite data directory in the system's temp dir with the demo city in it, and how long
 * the seed took. remove() deletes it.
 */
export async function seedDemoDataDir(prefix = 'guide-bench-pglite'): Promise<{ dir: string; seconds: number; remove: () => void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    return { dir, seconds: await runDemoSeed({ dataDir: dir }), remove };
  } catch (err) {
    remove();
    throw err;
  }
}
