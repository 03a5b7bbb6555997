import { readItem, writeItem } from '../common/storage';
import { SAVE_KINDS } from '../../shared/save-kinds';
import type { SaveKind } from './types';

// The saved-id maps kept in localStorage (spec 1 §3 "a bookmark map per kind with update
// time"; spec 2 §3 keys). Each entry is {map, updatedAt}: updatedAt is a server time (the
// kind's last_updates when the map was read, or the date of the member's own change), so a
// map is stale exactly when /profiles/hi/ reports a later last_updates for its kind. The
// stores are cleared with the others on profile or app-version change (common/storage.ts).

/** The localStorage key of a kind's map (spec 2 §3), shared with the dashboard. */
const cacheKey = (kind: SaveKind) => SAVE_KINDS[kind].storageKey;

/** The /profiles/hi/ last_updates key of a kind. */
export const lastUpdateKey = (kind: SaveKind) => SAVE_KINDS[kind].lastUpdateKey;

export interface CachedMap<V = unknown> {
  map: Record<string, V>;
  updatedAt: string | null;
}

const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : NaN);

/** The cached map of a kind, or null (absent, or written in another shape by older code). */
export function readCachedMap<V>(kind: SaveKind): CachedMap<V> | null {
  const v = readItem<CachedMap<V>>(cacheKey(kind));
  if (!v || typeof v !== 'object' || !v.map || typeof v.map !== 'object' || Array.isArray(v.map)) return null;
  if (v.updatedAt !== null && typeof v.updatedAt !== 'string') return null;
  return v;
}

export function writeCachedMap(kind: SaveKind, map: Record<string, unknown>, updatedAt: string | null): void {
  writeItem(cacheKey(kind), { map, updatedAt });
}

export function dropCachedMap(kind: SaveKind): void {
  try {
    window.localStorage.removeItem(cacheKey(kind));
  } catch {
    // storage disabled: nothing cached either
  }
}

/** Is the cache still good given the server's last change of that kind (null: never changed)? */
export function isFresh(cached: CachedMap | null, lastUpdate: string | null | undefined): cached is CachedMap {
  if (!cached) return false;
  if (!lastUpdate) return true;
  return !Number.isNaN(time(cached.updatedAt)) && time(lastUpdate) <= time(cached.updatedAt);
}

/** After the member's own change: the map as it now is, stamped with the server's time of it. */
export function recordOwnChange(kind: SaveKind, map: Record<string, unknown>, serverTime: string | undefined): void {
  const cached = readCachedMap(kind);
  if (!cached || !serverTime) return dropCachedMap(kind);
  const later = Number.isNaN(time(cached.updatedAt)) || time(serverTime) > time(cached.updatedAt) ? serverTime : cached.updatedAt;
  writeCachedMap(kind, map, later);
}
