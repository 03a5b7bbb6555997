// An island's address (the hub's criteria, the photo viewer's open photo) is written after the
// frame that shows the change: the browser's own work for a replaceState (7.5–14 ms a write on
// a phone-speed CPU) held that frame back. Writes coalesce (the last wins); a navigation, Back
// or leaving the page writes the pending one first, so history and a reload see it. One module
// for every island, so two islands on a page write in the order they asked.

interface PendingAddress {
  url: string;
  /** The history.state to write; when absent, the entry keeps the state it has then. */
  state?: unknown;
  keepState: boolean;
}

let pending: PendingAddress | null = null;
// A timer as well as the frame: a hidden tab draws no frames.
let fallback = 0;

/** Writes the address asked for last, if it is not written yet. */
export function writePendingAddress(): void {
  window.clearTimeout(fallback);
  if (pending === null) return;
  const { url, state, keepState } = pending;
  pending = null;
  window.history.replaceState(keepState ? window.history.state : state, '', url);
}

/**
 * history.replaceState(state, '', url) once the next frame is painted. Without `state`
 * the entry keeps its own.
 */
export function replaceAddressAfterPaint(url: string, options?: { state: unknown }): void {
  if (pending === null) {
    fallback = window.setTimeout(writePendingAddress, 100);
    requestAnimationFrame(() => window.setTimeout(writePendingAddress, 0));
    window.addEventListener('pagehide', writePendingAddress, { once: true });
  }
  pending = options ? { url, state: options.state, keepState: false } : { url, keepState: true };
}

/** The address waiting to be written (what the page shows now), or null. */
export function pendingAddress(): { url: string; state: unknown } | null {
  if (pending === null) return null;
  return { url: pending.url, state: pending.keepState ? window.history.state : pending.state };
}

/** Forgets the pending address: Back/Forward made another entry the current one. */
export function dropPendingAddress(): void {
  window.clearTimeout(fallback);
  pending = null;
}
