import { LRUCache } from 'lru-cache';

// The one in-process cache every time-limited cache of the server is built on (navbar menus,
// page options, large counts, guest answers ...): lru-cache bounds it (entries, and a total
// size when asked) and expires values after a TTL; this wrapper adds single-flight filling, so
// the requests that miss one key at the same moment share one load instead of each running
// it. A failed load is never kept: the next request tries again.
//
// Values may carry tags (tagsOf: a page's Surrogate-Key keys), indexed, so that a change drops
// the entries naming its keys without a scan (deleteTagged); a load running across a deletion
// that touches it is handed to its waiters but not stored, as it may predate the change.
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

export interface MemoryCacheOptions<V, K = unknown> {
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
  /**
   * What a value shows, as tags (a page's Surrogate-Key keys, an answer's): deleteTagged()
   * drops the entries naming a tag through an index, without a scan of every entry.
   */
  tagsOf?: (value: V, key: K) => Iterable<string>;
}

/** How many deletions are remembered for the loads running meanwhile (see refresh()). */
const DELETIONS_KEPT = 64;

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
  private readonly tagsOf: ((value: V, key: K) => Iterable<string>) | undefined;
  /** tag → the keys whose value names it, and each key's tags (kept in step by lru-cache's dispose). */
  private readonly byTag = new Map<string, Set<K>>();
  private readonly tagsByKey = new Map<K, readonly string[]>();
  /**
   * The latest deletions, numbered: a load that started before one and ends after it may hold
   * what was just forgotten (read before the change), so it is handed to its waiters but not kept.
   */
  private deletions: Array<{ seq: number; hits: (key: K, value: V) => boolean }> = [];
  private seq = 0;

  constructor(opts: MemoryCacheOptions<V, K>) {
    this.tally = opts.name === undefined ? undefined : tallyOf(opts.name);
    this.ttl = opts.ttlMs;
    this.clock = opts.now ?? Date.now;
    this.tagsOf = opts.tagsOf;
    this.lru = new LRUCache<K, V>({
      ...(opts.tagsOf ? { dispose: (_value: V, key: K) => this.unindex(key) } : {}),
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

  /**
   * Stores a value; `storedAt` keeps an earlier start of its TTL (when a value is replaced by a
   * larger copy of itself). With `loadedSince` (mark()'s answer when its load began), a value
   * that a deletion since then would have dropped is not stored.
   */
  set(key: K, value: V, storedAt?: number, loadedSince?: number): void {
    if (loadedSince !== undefined && this.deletedSince(loadedSince, key, value)) return;
    this.lru.set(key, value, storedAt === undefined ? undefined : { start: storedAt });
    if (this.tagsOf && this.lru.peek(key, { allowStale: true }) === value) this.index(key, value);
  }

  /** A mark of the deletions so far, for set()'s `loadedSince`. */
  mark(): number {
    return this.seq;
  }

  private deletedSince(since: number, key: K, value: V): boolean {
    if (since === this.seq) return false;
    // Older than the deletions remembered: perhaps dropped, so not kept.
    if (!this.deletions.length || this.deletions[0].seq > since + 1) return true;
    return this.deletions.some((d) => d.seq > since && d.hits(key, value));
  }

  private remember(hits: (key: K, value: V) => boolean): void {
    this.seq += 1;
    this.deletions.push({ seq: this.seq, hits });
    if (this.deletions.length > DELETIONS_KEPT) this.deletions = this.deletions.slice(-DELETIONS_KEPT);
  }

  private index(key: K, value: V): void {
    this.unindex(key);
    const tags = [...new Set(this.tagsOf!(value, key))];
    this.tagsByKey.set(key, tags);
    for (const tag of tags) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
  }

  private unindex(key: K): void {
    const tags = this.tagsByKey.get(key);
    if (!tags) return;
    this.tagsByKey.delete(key);
    for (const tag of tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
  }

  /** When key's value was stored, by the cache's clock. */
  storedAt(key: K, now?: number): number | undefined {
    const age = this.ageOf(key, now);
    return age === undefined ? undefined : (now ?? this.clock()) - age;
  }

  delete(key: K): void {
    this.remember((k) => k === key);
    this.lru.delete(key);
  }

  clear(): void {
    this.remember(() => true);
    this.lru.clear();
  }

  /** Drops every key the predicate picks. */
  deleteWhere(pick: (key: K) => boolean): void {
    this.remember((k) => pick(k));
    for (const key of [...this.lru.keys()]) if (pick(key)) this.lru.delete(key);
  }

  /** Drops every entry naming one of these tags (tagsOf), through the index; answers how many went. */
  deleteTagged(tags: Iterable<string>): number {
    const wanted = new Set(tags);
    const tagsOf = this.tagsOf;
    if (!tagsOf) throw new Error('deleteTagged needs tagsOf');
    this.remember((k, v) => {
      for (const t of tagsOf(v, k)) if (wanted.has(t)) return true;
      return false;
    });
    const doomed = new Set<K>();
    for (const tag of wanted) for (const key of this.byTag.get(tag) ?? []) doomed.add(key);
    for (const key of doomed) this.lru.delete(key);
    return doomed.size;
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
    const since = this.seq;
    const loading = (async () => loader())()
      .then((value) => {
        if (this.deletedSince(since, key, value)) return value;
        if (!opts.keep || opts.keep(value)) this.set(key, value);
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
