// Compiles the server (and the code it imports: shared/, migrations/, scripts/) to CommonJS
// JavaScript in dist/, so production runs `node server` without a TypeScript loader.
// swc transpiles file by file (type-checking is `npm run typecheck`'s job).
import fs from 'node:fs';
import path from 'node:path';
import { transformFile } from '@swc/core';

const root = path.resolve(__dirname, '..');
const outDir = path.join(root, 'dist');
const SOURCE_DIRS = ['server', 'shared', 'migrations', 'scripts'];

function* tsFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules' || entry.name === '__tests__' || entry.name === 'data') continue;
      yield* tsFiles(full);
    } else if (/\.tsx?$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      yield full;
    }
  }
}

async function main() {
  const t0 = Date.now();
  fs.rmSync(outDir, { recursive: true, force: true });
  let count = 0;
  for (const dir of SOURCE_DIRS) {
    for (const file of tsFiles(path.join(root, dir))) {
      const out = path.join(outDir, path.relative(root, file)).replace(/\.tsx?$/, '.js');
      const { code, map } = await transformFile(file, {
        swcrc: false,
        sourceMaps: true,
        jsc: { parser: { syntax: 'typescript', tsx: file.endsWith('.tsx') }, target: 'es2022' },
        module: { type: 'commonjs' },
      });
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, `${code}\n//# sourceMappingURL=${path.basename(out)}.map\n`);
      if (map) fs.writeFileSync(`${out}.map`, map);
      count++;
    }
  }
  console.log(`compiled ${count} files to dist/ in ${Date.now() - t0} ms`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
