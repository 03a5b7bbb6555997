import fs from 'node:fs';
import path from 'node:path';

// The project root, whether this file runs from server/ (tsx, jest) or dist/server/ (compiled).
function findRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'templates'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

export const ROOT = findRoot(__dirname);
export const TEMPLATES_DIR = path.join(ROOT, 'templates');
export const STATIC_DIR = path.join(ROOT, 'static');
export const SEED_DATA_DIR = path.join(ROOT, 'scripts', 'seed', 'data');
