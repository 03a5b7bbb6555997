import { LRUCache } from 'lru-cache';

// The one in-process cache every time-limited cache of the server is built on (navbar menus,
// page options, large counts, guest answers ...): lru-cache bounds it (entries, and a total
// size when asked) and expires values after a TTL; this wrapper adds single-flight filling, so
// the requests that miss one key at the same moment share one load instead of each running
// it. A failed load is never kept: the next request tries again.
//
// Values here live in one process only. State that must hold across the processes of a
// deployment (used captcha keys, rate-limit counters) belongs in the database.
//
// A cache built with the name of its entry in the cache catalogue (catalogue.ts) counts its
// readers' look-ups, hits and misses, under that name (every cache of the name in the process
// together): two additions on a plain object per look-up, read by /metrics at scrape time.

/** Look-ups of the caches of one catalogue name since the process started. */
export interface CacheTally {
  hits: number;
  misses: number;
}

const tallies = new Map<string, CacheTally>();

/** The look-ups counted so far, by catalogue name (server/http/metrics.ts reads them). */
export function cacheTallies(): ReadonlyMap<string, Readonly<CacheTally>> {
  return tallies;
}

function tallyOf(name: string): CacheTally {
  let tally = tallies.get(name);
  if (!tally) tallies.set(name, (tally = { hits: 0, misses: 0 }));
  return tally;
}

export interface MemoryCacheOptions<V> {
  /** Its entry in the cache catalogue (catalogue.ts): look-ups are counted under it. */
  name?: string;
  /** How long a stored value is served. */
  ttlMs: number;
  /** At most this many entries; the least recently used go first. */
  maxEntries: number;
  /** With sizeOf: at most this much in all (bytes, say); a single larger value is not kept. */
  maxSize?: number;
  sizeOf?: (value: V) => number;
  /** The clock, in milliseconds (tests pass a fake one). */
  now?: () => number;
}

export interface LoadOptions<V> {
  /** Whether a loaded value is worth storing (default: always); one that is not also drops the
   *  value stored before it. Callers waiting on the load get it either way. */
  keep?: (value: V) => boolean;
}

export class MemoryCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>> {
  private readonly lru: LRUCache<K, V>;
  private readonly ttl: number;
  private readonly clock: () => number;
  /** A caller's own "now", read by lru-cache for the duration of one synchronous look-up. */
  private pinned: number | undefined;
  private readonly running = new Map<K, Promise<V>>();
  private readonly tally: CacheTally | undefined;

  constructor(opts: MemoryCacheOptions<V>) {
    this.tally = opts.name === undefined ? undefined : tallyOf(opts.name);
    this.ttl = opts.ttlMs;
    this.clock = opts.now ?? Date.now;
    this.lru = new LRUCache<K, V>({
      max: opts.maxEntries,
      ttl: opts.ttlMs,
      // Read the clock on every look-up (the default caches it for a millisecond).
      ttlResolution: 0,
      perf: { now: () => this.pinned ?? this.clock() },
      ...(opts.maxSize !== undefined && opts.sizeOf ? { maxSize: opts.maxSize, sizeCalculation: (v: V) => Math.max(1, opts.sizeOf!(v)) } : {}),
    });
  }

  private at<T>(now: number | undefined, look: () => T): T {
    if (now === undefined) return look();
    this.pinned = now;
    try {
      return look();
    } finally {
      this.pinned = undefined;
    }
  }

  /** A reader's look-up: the value stored for key if it is still fresh (at `now`, default the clock's); counted as a hit or a miss. */
  get(key: K, now?: number): V | undefined {
    const value = this.peek(key, now);
    this.countLookUp(value !== undefined);
    return value;
  }

  /** The fresh value for key, as get(), but not counted: a second look by the cache's own code. */
  peek(key: K, now?: number): V | undefined {
    return this.at(now, () => this.lru.get(key));
  }

  /** Counts one look-up that the cache's own code judged (a page cache whose reader looks in several steps). */
  countLookUp(hit: boolean): void {
    if (!this.tally) return;
    if (hit) this.tally.hits += 1;
    else this.tally.misses += 1;
  }

  /** How long ago key's fresh value was stored, or undefined when there is none. */
  ageOf(key: K, now?: number): number | undefined {
    return this.at(now, () => {
      if (!this.lru.has(key)) return undefined;
      return this.ttl - this.lru.getRemainingTTL(key);
    });
  }

  /** Whether a value was stored for key and not yet dropped, fresh or expired. */
  holds(key: K): boolean {
    return this.lru.peek(key, { allowStale: true }) !== undefined;
  }

  /** Stores a value; `storedAt` keeps an earlier start of its TTL (when a value is replaced by a larger copy of itself). */
  set(key: K, value: V, storedAt?: number): void {
    this.lru.set(key, value, storedAt === undefined ? undefined : { start: storedAt });
  }

  /** When key's value was stored, by the cache's clock. */
  storedAt(key: K, now?: number): number | undefined {
    const age = this.ageOf(key, now);
    return age === undefined ? undefined : (now ?? this.clock()) - age;
  }

  delete(key: K): void {
    this.lru.delete(key);
  }

  clear(): void {
    this.lru.clear();
  }

  /** Drops every key the predicate picks (a page cache purging a path's entries). */
  deleteWhere(pick: (key: K) => boolean): void {
    for (const key of [...this.lru.keys()]) if (pick(key)) this.lru.delete(key);
  }

  get size(): number {
    return this.lru.size;
  }

  /** Total size of the stored values (with sizeOf). */
  get calculatedSize(): number {
    return this.lru.calculatedSize;
  }

  /** The load running for key, if any. */
  loading(key: K): Promise<V> | undefined {
    return this.running.get(key);
  }

  /** The fresh value for key, else the load already running for it, else a new load. */
  async load(key: K, loader: () => Promise<V>, opts: LoadOptions<V> & { now?: number } = {}): Promise<V> {
    const hit = this.get(key, opts.now);
    if (hit !== undefined) return hit;
    return this.refresh(key, loader, opts);
  }

  /** A new value for key, even over a fresh one (which is served meanwhile); shared with a load already running. */
  refresh(key: K, loader: () => Promise<V>, opts: LoadOptions<V> = {}): Promise<V> {
    const running = this.running.get(key);
    if (running) return running;
    const loading = (async () => loader())()
      .then((value) => {
        if (!opts.keep || opts.keep(value)) this.lru.set(key, value);
        else this.lru.delete(key);
        return value;
      })
      .finally(() => {
        if (this.running.get(key) === loading) this.running.delete(key);
      });
    this.running.set(key, loading);
    return loading;
  }
}
