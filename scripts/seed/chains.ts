import { readEstablishments } from './data-files';

// Chains: a name DineSafe registers at three or more addresses (Tim Hortons at 379, Pizza Pizza
// at 100, ...). Best of lists are editors' picks of independent places, so the seed leaves chains
// off them. The count is over the whole file, so a test importing a few rows agrees with a full
// seed.

const CHAIN_MIN_LOCATIONS = 3;

/** "McDONALD'S #4021", "MCDONALDS - UNION STATION" and "McDonald's" share one key. */
export function chainKey(name: string): string {
  return name
    .toUpperCase()
    .replace(/\s*[#(].*$/, '')
    .replace(/\s+-\s+.*$/, '')
    .replace(/[^A-Z0-9 ]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

let counts: Map<string, number> | undefined;

export function isChain(name: string): boolean {
  if (!counts) {
    counts = new Map();
    for (const r of readEstablishments()) {
      const k = chainKey(r.name);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  }
  return (counts.get(chainKey(name)) ?? 0) >= CHAIN_MIN_LOCATIONS;
}
