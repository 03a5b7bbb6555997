// A small seeded PRNG so that the demo city is the same on every machine and every run.
// mulberry32: 32-bit state, fast, good enough for generating content (not for secrets).

/** 32-bit FNV-1a: turns a label into a seed, so substreams are independent of one another. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  private readonly next: () => number;

  constructor(readonly seed: number) {
    this.next = mulberry32(seed);
  }

  /**
   * An independent stream for one part of the seed (say 'listings' or 'listing:10752656').
   * Each phase draws from its own stream, so changing how many numbers one phase uses does
   * not reshuffle every phase after it, and seeding the first N listings gives the same rows
   * as the first N of a full run.
   */
  fork(label: string | number): Rng {
    return new Rng((hashString(String(label)) ^ Math.imul(this.seed, 0x9e3779b1)) >>> 0);
  }

  /** [0, 1) */
  float(): number {
    return this.next();
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks by weight: [[item, weight], ...]. */
  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T {
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [item, w] of entries) {
      r -= w;
      if (r < 0) return item;
    }
    return entries[entries.length - 1][0];
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  /** k distinct items (or all of them when there are fewer). */
  sample<T>(items: readonly T[], k: number): T[] {
    if (k >= items.length) return this.shuffle(items);
    // Partial Fisher-Yates on a copy: O(k) swaps.
    const out = items.slice();
    for (let i = 0; i < k; i++) {
      const j = i + Math.floor(this.next() * (out.length - i));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out.slice(0, k);
  }
}
