import type { ContentChange } from './change-notices';

// What a change touches, for the caches that forget by it: a change names the Surrogate-Key
// keys of what it changed (http/surrogate-keys.ts: `story-12 section-news home feeds`); a change
// naming none (a reconnect after a lost connection, an unknown change) may have touched anything.

/** The keys a change names, or undefined when it names none: then everything goes. */
export function changedKeys(change: Pick<ContentChange, 'keys'>): readonly string[] | undefined {
  return change.keys?.length ? change.keys : undefined;
}

/**
 * Whether a change touches what a cache shows, given as keys (`home`, `places`) or families of
 * keys (ending in '-': `story-`, `neighbourhood-`). A change naming no keys touches everything.
 */
export function changeTouches(change: Pick<ContentChange, 'keys'>, shows: readonly string[]): boolean {
  const keys = changedKeys(change);
  if (!keys) return true;
  return keys.some((key) => shows.some((s) => (s.endsWith('-') ? key.startsWith(s) : key === s)));
}
