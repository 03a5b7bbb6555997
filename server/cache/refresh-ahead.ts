import { MemoryCache } from './memory-cache';

// The refresh-ahead policy, once, for every in-process cache of expensive, slowly-changing
// results (large counts and search rankings, the public lists' shared answers, the geocoder's
// gazetteer). Under load a plain expiry makes every request that arrives in the same instant
// recompute (twenty concurrent 90 ms counts on two cores is a two-second stall), so:
// - a value is kept for ttlMs; from refreshAfterMs on, a hit answers at once and one new value
//   loads in the background, so a value read steadily never expires in a reader's path. A
//   value is never older than ttlMs plus one load;
// - one load at a time per key: readers of an expired value share the load already running
//   (single flight). A key never kept before is loaded by each reader for itself unless
//   shareFirstLoad says otherwise: a request then reads after its own writes, and a value not
//   worth keeping (`keep`) is never handed from one request to another;
// - a failed background refresh is logged and, by the cache's onRefreshError, either forgets
//   the value (the next reader loads in its path) or keeps serving it until its TTL runs out;
// - bounded: at most maxEntries keys, least recently used out first (MemoryCache, lru-cache);
// - a reader may name a fallback key whose value is served while its own key loads (the
//   previous minute's answer of a list whose visibility depends on the time);
// - invalidation by key or by key prefix, and by what changed: a reader tags a value with the
//   Surrogate-Key keys of what it shows (http/surrogate-keys.ts: `places`, `hub-restaurants`),
//   or with a family of keys (`neighbourhood-`: any neighbourhood's), and forget(change keys)
//   drops the values naming one of them, through an index. A value
//   read without tags may show anything: any change drops it. A change naming no keys (a
//   reconnect, an unknown change) drops everything. A load running across a change is handed
//   to its readers but not kept (it may have read before the change).
// Every cache built here names its entry in the catalogue (catalogue.ts), which says what it
// holds, for how long, for whom and how it is invalidated.

export interface RefreshAheadOptions {
  /** Its entry in the cache catalogue (catalogue.ts). */
  name: string;
  /** A value is never served older than this. */
  ttlMs: number;
  /** From this age on, a hit triggers one background refresh. */
  refreshAfterMs: number;
  maxEntries: number;
  /** After a failed background refresh: drop the value at once, or serve it until its TTL ends. */
  onRefreshError: 'forget' | 'keep';
  /** Whether readers of a key with no value kept share one load (else each loads its own). */
  shareFirstLoad: boolean;
  /** The clock, in milliseconds (tests pass a fake one). */
  now?: () => number;
}

export interface ReadOptions<V> {
  /** Whether a loaded value is worth keeping (default: always). */
  keep?: (value: V) => boolean;
  /** The reader's own "now" (a count aged from when its query started). */
  now?: number;
  /** A key whose fresh value is served (and a background load started) while `key` has none. */
  fallbackKey?: string;
  /** The Surrogate-Key keys of what the value shows (see above); unset: any change drops it. */
  tags?: readonly string[];
}

/** Where failed background refreshes are reported: the server's logger once it runs (server/index.ts). */
export interface RefreshErrorLog {
  warn(details: { err: unknown; cache: string; key: string }, message: string): void;
}

let errorLog: RefreshErrorLog = { warn: (details, message) => console.warn(message, details) };

/** Sends failed background refreshes to `log` from now on; returns the log used before. */
export function logCacheRefreshErrorsTo(log: RefreshErrorLog): RefreshErrorLog {
  const before = errorLog;
  errorLog = log;
  return before;
}

/** A key's family, the tag naming every key of its kind: `story-12` → `story-`; '' for `home`. */
export function familyOf(key: string): string {
  const dash = key.indexOf('-');
  return dash > 0 ? key.slice(0, dash + 1) : '';
}

/** Boxed, so that any value (undefined too) can be kept, with the tags it was read with. */
type Kept<V> = { value: V; tags?: readonly string[] };

/** The tag of a value read without tags: every keyed change drops it. (A NUL is in no key.) */
const SHOWS_ANYTHING = '\0any';

const names = new Set<string>();

/** The catalogue names of the refresh-ahead caches defined in this process so far (catalogue.test.ts). */
export function refreshAheadCacheNames(): ReadonlySet<string> {
  return names;
}

export class RefreshAheadCache<V> {
  private readonly cache: MemoryCache<string, Kept<V>>;

  constructor(private readonly opts: RefreshAheadOptions) {
    names.add(opts.name);
    // Named: its readers' look-ups are counted under its catalogue name (the figures' hit ratio).
    this.cache = new MemoryCache<string, Kept<V>>({
      name: opts.name,
      ttlMs: opts.ttlMs,
      maxEntries: opts.maxEntries,
      now: opts.now,
      tagsOf: (kept) => kept.tags ?? [SHOWS_ANYTHING],
    });
  }

  get name(): string {
    return this.opts.name;
  }

  /** The value kept for key, or load()'s (see above). */
  async get(key: string, load: () => Promise<V>, read: ReadOptions<V> = {}): Promise<V> {
    const { cache } = this;
    const keep = read.keep;
    const loadOptions = { keep: keep && ((kept: Kept<V>) => keep(kept.value)) };
    const tags = read.tags;
    const boxed = async (): Promise<Kept<V>> => ({ value: await load(), tags });
    // Looked at first: get() drops an expired value (and a load running means there was one).
    const known = cache.holds(key) || cache.loading(key) !== undefined;
    const age = cache.ageOf(key, read.now);
    const hit = cache.get(key, read.now);
    if (hit && age !== undefined) {
      if (age >= this.opts.refreshAfterMs) this.refreshInBackground(key, boxed, loadOptions);
      return hit.value;
    }
    const fallback = read.fallbackKey === undefined ? undefined : cache.peek(read.fallbackKey, read.now);
    if (fallback) {
      this.refreshInBackground(key, boxed, loadOptions);
      return fallback.value;
    }
    // Expired, or loading: the readers meanwhile share one load.
    if (known || this.opts.shareFirstLoad) return (await cache.refresh(key, boxed, loadOptions)).value;
    const since = cache.mark();
    const value = await load();
    // Aged from when this reader asked: never older than the TTL counted from its load's start;
    // not kept if a change since may have made it stale.
    if (!keep || keep(value)) cache.set(key, { value, tags }, read.now, since);
    return value;
  }

  private refreshInBackground(key: string, load: () => Promise<Kept<V>>, loadOptions: { keep?: (kept: Kept<V>) => boolean }): void {
    if (this.cache.loading(key)) return;
    this.cache.refresh(key, load, loadOptions).catch((err: unknown) => {
      if (this.opts.onRefreshError === 'forget') this.cache.delete(key);
      errorLog.warn({ err, cache: this.opts.name, key: key.slice(0, 200) }, `cache refresh failed (${this.opts.onRefreshError === 'forget' ? 'value dropped' : 'kept until it expires'})`);
    });
  }

  /** Whether a fresh value is kept for key. */
  has(key: string, now?: number): boolean {
    return this.cache.peek(key, now) !== undefined;
  }

  invalidate(key: string): void {
    this.cache.delete(key);
  }

  invalidatePrefix(prefix: string): void {
    this.cache.deleteWhere((key) => key.startsWith(prefix));
  }

  clear(): void {
    this.cache.clear();
  }

  /**
   * Content changed: drops the values tagged with one of these keys, and those read without
   * tags; no keys (a reconnect, an unknown change): every value. Answers how many went.
   */
  forget(keys: readonly string[] | undefined): number {
    if (!keys?.length) {
      const all = this.cache.size;
      this.cache.clear();
      return all;
    }
    return this.cache.deleteTagged([...keys, ...keys.map(familyOf).filter((f) => f !== ''), SHOWS_ANYTHING]);
  }

  get size(): number {
    return this.cache.size;
  }
}

/** Each per-owner cache's look-up, for forgetChangedFor. */
const perOwner: Array<(owner: object) => { forget(keys: readonly string[] | undefined): number } | undefined> = [];

/**
 * Content changed (cache/change-notices.ts): every per-owner cache of this owner (a database:
 * the shared answers, the large counts, the gazetteer) forgets what the change's keys touch
 * (RefreshAheadCache.forget; no keys: everything). Answers how many values went.
 */
export function forgetChangedFor(owner: object, keys: readonly string[] | undefined): number {
  let gone = 0;
  for (const cacheOf of perOwner) gone += cacheOf(owner)?.forget(keys) ?? 0;
  return gone;
}

/**
 * One cache per owner (a database, an app's context), made on first use and dropped with its
 * owner: a test's fresh database or rebuilt app starts cold.
 */
export function refreshAheadPerOwner<V>(opts: RefreshAheadOptions): (owner: object) => RefreshAheadCache<V> {
  names.add(opts.name);
  const caches = new WeakMap<object, RefreshAheadCache<V>>();
  perOwner.push((owner) => caches.get(owner));
  return (owner) => {
    let cache = caches.get(owner);
    if (!cache) caches.set(owner, (cache = new RefreshAheadCache<V>(opts)));
    return cache;
  };
}
