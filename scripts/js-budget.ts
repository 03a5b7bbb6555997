// npx tsx scripts/js-budget.ts: the JavaScript each page downloads before any map, gzipped,
// against the budget of issue 12 (120 KB). A page's islands are the ones its route adds
// (addIsland in server/apps/*/pages.ts), listed in PAGES below, plus the navbar on every page;
// an island no page lists is counted with the navbar
// and the saves island, the most a page adds. For each page this sums the gzip size of the
// files its entries import statically (what the server preloads), leaving out what is only
// imported dynamically (MapLibre and the map engine load when a map is shown).
// Needs `npm run build:islands` first. Exits 1 when a page is over budget or an island imports
// MapLibre statically.
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
// The islands' entries; the page stylesheets (static/css/bundles/) are entries too, with no JS.
const entries = Object.entries(manifest).filter(([k, c]) => c.isEntry && k.startsWith('islands/'));
const entryKey = (island: string) => entries.find(([k]) => k === `islands/${island}/main.tsx`)?.[0];
// The offline island (islands/offline/main.tsx) registers the service worker after load, on
// every page; it may add at most SW_REGISTRATION_BUDGET_KB (issue 28 part 2).
const SITE_WIDE = ['navbar', 'offline'];
const SW_REGISTRATION_BUDGET_KB = 15;
const PAGES: Record<string, string[]> = {
  'a listing': ['saves', 'listing-map', 'photo-viewer'],
  "a listing's photos": ['photo-viewer', 'photo-uploader'],
  'a listing hub': ['saves', 'listing-search'],
  'the dashboard': ['dashboard'],
  'onboarding': ['onboarding'],
  'add an event': ['event-form'],
  'events': ['saves', 'events-hub', 'newsletter-prompt'],
  'a Best of list': ['saves', 'best-of-map'],
  'search': ['search'],
  'videos': ['saves', 'video-grid'],
  'the patio guide': ['saves', 'patio-map'],
  'neighbourhoods': ['neighbourhoods-index-map'],
  'a neighbourhood': ['saves', 'neighbourhood-page-map'],
  'an age-gated page': ['saves', 'age-gate'],
  // The ad slots' script (no React) rides on the pages that print slots: home, news hubs, articles.
  'an article': ['saves', 'ad-slots'],
  // The places desk's add/edit form (staff, issue 39): its map pin; MapLibre loads only when the pin shows.
  'the places desk form': ['place-pin'],
};
// Islands that only staff pages load (the newsroom's story editor, issue 37; the places desk's
// review editor, issue 39, which uses the same ProseMirror body) are not a public page's
// JavaScript: they have their own budget, reported below, and no public row. The story editor's
// was 200 KB (180 KB used) until live co-editing (issue 42): Yjs, y-prosemirror and lib0 (31 KB)
// and Hocuspocus's provider (10 KB), fetched with the body's chunk, not at start (docs/newsroom.md).
const STAFF_ONLY: Record<string, number> = { 'story-editor': 230, 'review-editor': 200 };
const islands = entries.map(([k]) => k.replace(/^islands\/|\/main\.tsx$/g, ''));
const listed = new Set(Object.values(PAGES).flat().concat(SITE_WIDE, Object.keys(STAFF_ONLY)));
for (const island of islands) if (!listed.has(island)) PAGES[`a page with ${island}`] = ['saves', island];

let over = 0;
const rows: Array<[string, number, boolean]> = [];
for (const [page, own] of Object.entries(PAGES)) {
  const keys = [...SITE_WIDE, ...own].map(entryKey).filter((k): k is string => Boolean(k));
  if (!own.some((i) => entryKey(i))) continue; // a page whose islands are not built (yet)
  const island = page;
  const files = new Set<string>();
  for (const k of keys) for (const f of staticFiles(k)) files.add(f);
  const maplibre = [...files].some((f) => /maplibre/.test(f));
  const kb = [...files].filter((f) => !/maplibre/.test(f)).reduce((s, f) => s + gzipKb(f), 0);
  rows.push([island, kb, maplibre]);
  if (kb > BUDGET_KB || maplibre) over++;
}
rows.sort((a, b) => b[1] - a[1]);
console.log(`JS per page without the map, gzip (with the site-wide ${SITE_WIDE.filter(entryKey).join(', ')}); budget ${BUDGET_KB} KB`);
for (const [island, kb, maplibre] of rows) console.log(`  ${island.padEnd(26)} ${kb.toFixed(1).padStart(6)} KB${kb > BUDGET_KB ? '  OVER BUDGET' : ''}${maplibre ? '  (imports MapLibre statically!)' : ''}`);
// What the registration adds to a page: the offline island's files that the navbar does not
// already bring.
const navbarFiles = entryKey('navbar') ? staticFiles(entryKey('navbar') as string) : new Set<string>();
const offlineKey = entryKey('offline');
if (offlineKey) {
  const kb = [...staticFiles(offlineKey)].filter((f) => !navbarFiles.has(f)).reduce((s, f) => s + gzipKb(f), 0);
  console.log(`Service worker registration (offline island) adds ${kb.toFixed(1)} KB gzip to every page; limit ${SW_REGISTRATION_BUDGET_KB} KB${kb > SW_REGISTRATION_BUDGET_KB ? '  OVER BUDGET' : ''}`);
  if (kb > SW_REGISTRATION_BUDGET_KB) over++;
}
// A staff-only island's budget is for everything it can load: its entry's static imports and
// every chunk reachable through dynamic imports (the body editor, panels, dialogs), since a
// writer at work loads them all. Over it, the script exits 1 too.
function reachableFiles(key: string, seen = new Set<string>()): Set<string> {
  const chunk = manifest[key] as (typeof manifest)[string] & { dynamicImports?: string[] };
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const k of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])]) reachableFiles(k, seen);
  return seen;
}
for (const [island, budget] of Object.entries(STAFF_ONLY)) {
  const key = entryKey(island);
  if (!key) continue;
  const atStart = staticFiles(key);
  const later = [...reachableFiles(key)].filter((f) => !atStart.has(f)).map((f) => [f, gzipKb(f)] as const).sort((a, b) => b[1] - a[1]);
  const startKb = [...atStart].reduce((s, f) => s + gzipKb(f), 0);
  const laterKb = later.reduce((s, [, kb]) => s + kb, 0);
  const kb = startKb + laterKb;
  console.log(`Staff-only ${island}: ${kb.toFixed(1)} KB gzip in all; budget ${budget} KB${kb > budget ? '  OVER BUDGET' : ''}`);
  console.log(`  at start (static imports, with React and Redux) ${startKb.toFixed(1).padStart(6)} KB`);
  console.log(`  loaded on demand (${later.length} chunks)${' '.repeat(Math.max(0, 12 - String(later.length).length))}${laterKb.toFixed(1).padStart(6)} KB: ${later.slice(0, 4).map(([f, k]) => `${path.basename(f).replace(/-[\w-]{8}\.js$/, '')} ${k.toFixed(1)}`).join(', ')}${later.length > 4 ? ' …' : ''}`);
  if (kb > budget) over++;
}
if (over) process.exit(1);
