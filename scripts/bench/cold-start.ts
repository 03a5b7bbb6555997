// Measures what a new user waits for: `npm start` on an empty DATA_DIR until the home page
// answers 200 (islands build if stale, migrations, demo seed, listen), then a second start on
// the same data (no seed). Usage: npx tsx scripts/bench/cold-start.ts [--port 3390]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const portArg = process.argv.indexOf('--port');
const port = portArg > 0 ? Number(process.argv[portArg + 1]) : 3390;

async function waitFor200(url: string, deadlineMs: number): Promise<boolean> {
  while (Date.now() < deadlineMs) {
    try {
      const res = await fetch(url);
      if (res.status === 200) return true;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

async function timeStart(dataDir: string): Promise<number> {
  const t0 = Date.now();
  const child = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/start.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const ok = await waitFor200(`http://127.0.0.1:${port}/`, Date.now() + 15 * 60_000);
  const elapsed = Date.now() - t0;
  child.kill('SIGTERM');
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (!ok) throw new Error('the server never answered 200');
  if (code !== 0) console.warn(`warning: the server exited with ${code} after SIGTERM`);
  return elapsed;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guide-cold-'));
  try {
    const cold = await timeStart(dataDir);
    const warm = await timeStart(dataDir);
    console.log(`cold start (empty DATA_DIR, seed included) to first 200: ${(cold / 1000).toFixed(1)} s`);
    console.log(`warm start (seeded DATA_DIR) to first 200:             ${(warm / 1000).toFixed(1)} s`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
