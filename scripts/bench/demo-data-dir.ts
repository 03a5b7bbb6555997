import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './measure';

/**
 * A fresh PGlite data directory in the system's temp dir with the demo city in it, seeded by
 * `npm run seed` in its own process (as a newcomer seeds it: migrations, then the demo), and how
 * long that took. The seed's own lines go nowhere but its errors to stderr. remove() deletes it.
 */
export async function seedDemoDataDir(prefix = 'guide-bench-pglite'): Promise<{ dir: string; seconds: number; remove: () => void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'warn' };
  // PGlite in DATA_DIR, not a server a DATABASE_URL in the environment would name.
  delete env.DATABASE_URL;
  const t0 = Date.now();
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['scripts/seed.ts'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`npm run seed into ${dir} exited with ${code}`))));
    });
  } catch (err) {
    remove();
    throw err;
  }
  return { dir, seconds: (Date.now() - t0) / 1000, remove };
}
