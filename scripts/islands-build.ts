import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

// `npm start` builds the islands only when their build is missing or older than any source
// it depends on (islands/, shared/, the stylesheets vite bundles in static/css/, vite.config.ts,
// package-lock.json).
const root = path.resolve(__dirname, '..');
const manifest = path.join(root, 'static', 'dist', '.vite', 'manifest.json');

function newestMtime(target: string): number {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    if (entry === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

export function islandsBuildIsStale(): boolean {
  const built = fs.statSync(manifest, { throwIfNoEntry: false });
  if (!built) return true;
  const sources = ['islands', 'shared', 'static/css', 'vite.config.ts', 'package-lock.json'].map((p) => newestMtime(path.join(root, p)));
  return Math.max(...sources) > built.mtimeMs;
}

export function buildIslandsIfStale(log: (msg: string) => void = console.log): void {
  if (!islandsBuildIsStale()) return;
  log('building the islands (vite build)…');
  const t0 = Date.now();
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--configLoader', 'runner', '--config', 'vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  log(`islands built in ${Date.now() - t0} ms`);
}

if (require.main === module) buildIslandsIfStale();
