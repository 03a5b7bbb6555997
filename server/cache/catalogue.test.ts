import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../paths';
import { CACHE_CATALOGUE, catalogueEntries, type CacheEntry } from './catalogue';
import { catalogueMarkdown } from './catalogue-markdown';
import { refreshAheadCacheNames } from './refresh-ahead';

// The cache catalogue cannot drift from the code: every in-process cache the server builds
// (a MemoryCache or a refresh-ahead cache) has an entry naming its file, and every entry names
// a cache that is there; each entry's lifetime constant is the one its file uses; nginx keeps
// its micro-cache as long as the catalogue says; and the markdown for the docs lists them all.

const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((d) => {
    const rel = path.posix.join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(rel);
    return /\.tsx?$/.test(d.name) && !/\.(test|d)\.tsx?$/.test(d.name) ? [rel] : [];
  });
}

// What builds an in-process cache; the helpers' own files define them and are left out.
const BUILDS_A_CACHE = /new MemoryCache\s*[<(]|new RefreshAheadCache\s*[<(]|refreshAheadPerOwner\s*[<(]/g;
const HELPERS = ['server/cache/memory-cache.ts', 'server/cache/refresh-ahead.ts'];

/** The in-process caches the code builds, as the number built in each file. */
function cachesBuiltPerFile(): Map<string, number> {
  const built = new Map<string, number>();
  for (const file of sourceFiles('server').filter((f) => !HELPERS.includes(f))) {
    const n = read(file).match(BUILDS_A_CACHE)?.length ?? 0;
    if (n) built.set(file, n);
  }
  return built;
}

const entries = catalogueEntries();
/** In-process entries with a time limit: each is one MemoryCache or refresh-ahead cache. */
const timed = entries.filter(([, e]) => e.kind === 'in-process' && !('untilInvalidated' in e.lifetime));

test('every in-process cache the server builds has its entry, and every entry a cache', () => {
  const catalogued = new Map<string, number>();
  for (const [, e] of timed) catalogued.set(e.where, (catalogued.get(e.where) ?? 0) + 1);
  expect(Object.fromEntries(catalogued)).toEqual(Object.fromEntries(cachesBuiltPerFile()));
});

test('each refresh-ahead cache is built under the name of its entry, in the file the entry names', () => {
  const named = [...sourceFiles('server').filter((f) => !HELPERS.includes(f))].flatMap((file) =>
    [...read(file).matchAll(/(?:refreshAheadPerOwner|new RefreshAheadCache)\s*(?:<[^>]*>)?\(\{\s*name:\s*'([^']+)'/g)].map((m) => [m[1], file]),
  );
  expect(named.length).toBeGreaterThan(0);
  for (const [name, file] of named) expect([name, (CACHE_CATALOGUE as Record<string, CacheEntry>)[name]?.where]).toEqual([name, file]);
  // And at run time: the caches defined by the modules loaded so far (the catalogue loads the core's).
  for (const name of refreshAheadCacheNames()) expect(Object.keys(CACHE_CATALOGUE)).toContain(name);
  expect([...refreshAheadCacheNames()]).toEqual(expect.arrayContaining(['large-counts', 'shared-answers']));
});

test("a MemoryCache's name (its look-ups' label in /metrics) is its entry's, in the file the entry names; the core's are all named", () => {
  const built = sourceFiles('server').filter((f) => !HELPERS.includes(f)).flatMap((file) =>
    [...read(file).matchAll(/new MemoryCache\s*(?:<[^>]*>)?\((\{\s*name:\s*'([^']+)')?/g)].map((m) => ({ file, name: m[2] })),
  );
  const named = built.filter((b) => b.name !== undefined);
  expect(named.length).toBeGreaterThanOrEqual(5);
  for (const { file, name } of named) expect([name, (CACHE_CATALOGUE as Record<string, CacheEntry>)[name!]?.where]).toEqual([name, file]);
  expect(built.filter((b) => !b.name && !b.file.startsWith('server/apps/'))).toEqual([]);
});

test("each entry's file exists and uses the constant its lifetime names", () => {
  for (const [name, e] of entries) {
    const source = read(e.where);
    const l = e.lifetime;
    const constants = [
      'constant' in l && e.kind !== 'nginx' ? l.constant : undefined,
      'refreshConstant' in l ? l.refreshConstant : undefined,
      'freshConstant' in l ? l.freshConstant : undefined,
    ].filter((c): c is string => c !== undefined);
    for (const c of constants) expect([name, c, source.includes(c)]).toEqual([name, c, true]);
    if ('passedIn' in l) expect(read(l.definedIn)).toMatch(new RegExp(`export const ${l.passedIn}\\b`));
    if ('ttlMs' in l) {
      expect(l.ttlMs).toBeGreaterThan(0);
      if (l.refreshAfterMs !== undefined) expect(l.refreshAfterMs).toBeLessThan(l.ttlMs);
    }
  }
});

test("nginx's micro-cache keeps an answer as long as the catalogue (and the app's own page cache) says", () => {
  const nginx = CACHE_CATALOGUE['nginx-micro-cache'];
  expect(read(nginx.where)).toMatch(new RegExp(`^\\s*proxy_cache_valid 200 ${nginx.lifetime.nginxSeconds}s;`, 'm'));
});

test('the markdown table for the docs has a row per cache', () => {
  const table = catalogueMarkdown(entries);
  const rows = table.trim().split('\n').slice(2);
  expect(rows).toHaveLength(entries.length);
  for (const [name] of entries) expect(table).toContain(`| \`${name}\` |`);
  expect(table).toContain('10 s (`ANSWER_TTL_MS`), refreshed ahead after 4 s (`ANSWER_REFRESH_AFTER_MS`)');
});

test('an entry that says a change notice drops it names a file that forgets on a change, and each such file has one', () => {
  // What forgets on a change: a listener choosing by the change's keys (change-keys.ts), the
  // per-database caches app.ts forgets by keys (refresh-ahead.ts), the page cache's purgeChange.
  const forgets = (file: string) => /changeTouches\(|refreshAheadPerOwner\s*[<(]|function purgeChange\(/.test(read(file));
  const inProcess = entries.filter(([, e]) => e.kind === 'in-process');
  for (const [name, e] of inProcess) if (/change notice/.test(e.invalidation)) expect([name, forgets(e.where)]).toEqual([name, true]);
  const files = new Set(inProcess.map(([, e]) => e.where).filter(forgets));
  expect(files.size).toBeGreaterThanOrEqual(7);
  for (const file of files) expect([file, inProcess.some(([, e]) => e.where === file && /change notice/.test(e.invalidation))]).toEqual([file, true]);
});
