// The browser history the viewer writes (spec 2 §2: opening a photo pushes its share path,
// closing returns to the closed path). Behind this interface so the sagas can be tested.

/** What the viewer keeps in history.state for the entry it pushed: the open photo's index. */
export interface ViewerHistoryState {
  photoViewer: number;
}

export interface ViewerHistory {
  push(path: string, state: ViewerHistoryState): void;
  replace(path: string, state: ViewerHistoryState | null): void;
  back(): void;
  /** The current entry's state, when the viewer wrote it. */
  current(): ViewerHistoryState | null;
  /** path + query of the page now shown. */
  location(): string;
  /** Calls back on Back/Forward with the entry's viewer state (null for other entries). */
  listen(onPop: (state: ViewerHistoryState | null) => void): () => void;
}

const viewerState = (s: unknown): ViewerHistoryState | null =>
  s && typeof s === 'object' && Number.isInteger((s as ViewerHistoryState).photoViewer) ? (s as ViewerHistoryState) : null;

// A move's replaceState is written after the frame that shows the new photo: the browser's own
// work for it (about 14 ms a move on a phone-speed CPU) held that frame back. Until then the
// viewer reads the address it asked for; a push, Back or leaving the page writes it first, and
// Back/Forward drops it (the entry it was for is no longer the current one).
let pending: { path: string; state: ViewerHistoryState | null } | null = null;
// A timer as well as the frame: a hidden tab draws no frames.
let fallback = 0;

function writePending() {
  window.clearTimeout(fallback);
  if (!pending) return;
  const { path, state } = pending;
  pending = null;
  window.history.replaceState(state, '', path);
}

function writeAfterNextPaint() {
  fallback = window.setTimeout(writePending, 100);
  requestAnimationFrame(() => window.setTimeout(writePending, 0));
}

export const browserHistory: ViewerHistory = {
  push: (path, state) => {
    writePending();
    window.history.pushState(state, '', path);
  },
  replace: (path, state) => {
    if (!pending) {
      writeAfterNextPaint();
      window.addEventListener('pagehide', writePending, { once: true });
    }
    pending = { path, state };
  },
  back: () => {
    writePending();
    window.history.back();
  },
  current: () => (pending ? pending.state : viewerState(window.history.state)),
  location: () => pending?.path ?? window.location.pathname + window.location.search,
  listen(onPop) {
    const handler = (e: PopStateEvent) => {
      pending = null;
      onPop(viewerState(e.state));
    };
    window.addEventListener('popstate', handler);
    return () => window.removeEventListener('popstate', handler);
  },
};
