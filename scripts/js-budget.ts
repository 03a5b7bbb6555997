// npx tsx scripts/js-budget.ts: the JavaScript each page downloads before any map, gzipped,
// against the budget of issue 12 (120 KB). A page loads the site-wide islands (navbar, saves and,
// when it exists, the newsletter prompt) plus its own; this sums, for every island, the gzip size
// of the files those entries import statically (the same files the server preloads), leaving
// out what is only imported dynamically (MapLibre and the map engine load when a map is shown).
// Needs `npm run build:islands` first. Exits 1 when an island's page is over budget.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const BUDGET_KB = 120;
const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'static', 'dist');
const manifest: Record<string, { file: string; imports?: string[]; isEntry?: boolean; name?: string; css?: string[] }> = JSON.parse(
  fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'),
);

function staticFiles(key: string, seen = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticFiles(imported, seen);
  return seen;
}

const gzipKb = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length / 1024;
const entries = Object.entries(manifest).filter(([, c]) => c.isEntry);
const entryKey = (island: string) => entries.find(([k]) => k === `islands/${island}/main.tsx`)?.[0];
const siteWide = ['navbar', 'saves', 'newsletter-prompt'].map(entryKey).filter((k): k is string => Boolean(k));

let over = 0;
const rows: Array<[string, number, boolean]> = [];
for (const [key] of entries) {
  const island = key.replace(/^islands\/|\/main\.tsx$/g, '');
  const files = new Set<string>();
  for (const k of [...siteWide, key]) for (const f of staticFiles(k)) files.add(f);
  const maplibre = [...files].some((f) => /maplibre/.test(f));
  const kb = [...files].filter((f) => !/maplibre/.test(f)).reduce((s, f) => s + gzipKb(f), 0);
  rows.push([island, kb, maplibre]);
  if (kb > BUDGET_KB || maplibre) over++;
}
rows.sort((a, b) => b[1] - a[1]);
console.log(`JS per page without the map, gzip (site-wide: ${siteWide.map((k) => k.split('/')[1]).join(', ')}); budget ${BUDGET_KB} KB`);
for (const [island, kb, maplibre] of rows) console.log(`  ${island.padEnd(20)} ${kb.toFixed(1).padStart(6)} KB${kb > BUDGET_KB ? '  OVER BUDGET' : ''}${maplibre ? '  (imports MapLibre statically!)' : ''}`);
if (over) process.exit(1);
