import fs from 'node:fs';
import path from 'node:path';
import { migrations } from './index';

// The migrator runs what migrations/index.ts lists, not what is in the folder: a migration file
// written and not listed would never run (and one listed out of order would run too early).
describe('migrations/index.ts', () => {
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => /^\d{14}_[a-z0-9_]+\.ts$/.test(f))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();

  test('lists every migration file in the folder, each once, in timestamp order', () => {
    expect(migrations.map(([name]) => name)).toEqual(files);
  });

  test('lists no file that is not there', () => {
    for (const [name] of migrations) expect(fs.existsSync(path.join(__dirname, `${name}.ts`))).toBe(true);
  });
});
