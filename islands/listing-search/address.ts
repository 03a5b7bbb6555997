// The hub's address (its criteria as a query, spec 2 §2) is written after the frame that shows
// a search's answer: the browser's own work for a replaceState (7.5–11 ms a write on a
// phone-speed CPU) held that frame back. Writes coalesce (the last address wins); a navigation
// or leaving the page writes the pending one first, so Back and a reload see it.

let pending: string | null = null;
// A timer as well as the frame: a hidden tab draws no frames.
let fallback = 0;

/** Writes the address asked for last, if it is not written yet. */
export function writePendingAddress(): void {
  window.clearTimeout(fallback);
  if (pending === null) return;
  const url = pending;
  pending = null;
  window.history.replaceState(window.history.state, '', url);
}

/** history.replaceState(url) once the next frame is painted. */
export function replaceAddressAfterPaint(url: string): void {
  if (pending === null) {
    fallback = window.setTimeout(writePendingAddress, 100);
    requestAnimationFrame(() => window.setTimeout(writePendingAddress, 0));
    window.addEventListener('pagehide', writePendingAddress, { once: true });
  }
  pending = url;
}
