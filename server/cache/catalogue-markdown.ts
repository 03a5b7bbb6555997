import type { CacheEntry, CacheName, Lifetime } from './catalogue';

// The cache catalogue (catalogue.ts) as the markdown table of docs/performance.md, printed by
// scripts/cache-table.ts.

function duration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

export function lifetimeText(l: Lifetime): string {
  if ('ttlMs' in l) {
    const refresh = l.refreshAfterMs === undefined ? '' : `, refreshed ahead after ${duration(l.refreshAfterMs)} (\`${l.refreshConstant}\`)`;
    return `${duration(l.ttlMs)} (\`${l.constant}\`)${refresh}`;
  }
  if ('cacheControl' in l) return `\`${l.cacheControl}\` (\`${l.constant}\`)`;
  if ('nginxSeconds' in l) return `${l.nginxSeconds} s (\`${l.constant}\`)`;
  if ('maxEntries' in l) {
    const fresh = l.freshMs === undefined ? '' : `; a member's guest copy refetched after ${duration(l.freshMs)} (\`${l.freshConstant}\`)`;
    return `last ${l.maxEntries} entries (\`${l.constant}\`)${fresh}`;
  }
  if ('passedIn' in l) return `\`${l.passedIn}\` (${l.definedIn})`;
  return 'until invalidated';
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function catalogueMarkdown(entries: Array<[CacheName, CacheEntry]>): string {
  const rows = entries.map(([name, e]) =>
    [`\`${name}\``, e.kind, e.holds, lifetimeText(e.lifetime) + (e.bound ? `; at most ${e.bound}` : ''), e.forWhom, e.invalidation, `\`${e.where}\``].map(cell).join(' | '),
  );
  return ['| Cache | Kind | Holds | Lifetime | For whom | Invalidated | Where |', '| --- | --- | --- | --- | --- | --- | --- |', ...rows.map((r) => `| ${r} |`)].join('\n') + '\n';
}
