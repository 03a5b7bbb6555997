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

export const browserHistory: ViewerHistory = {
  push: (path, state) => window.history.pushState(state, '', path),
  replace: (path, state) => window.history.replaceState(state, '', path),
  back: () => window.history.back(),
  current: () => viewerState(window.history.state),
  location: () => window.location.pathname + window.location.search,
  listen(onPop) {
    const handler = (e: PopStateEvent) => onPop(viewerState(e.state));
    window.addEventListener('popstate', handler);
    return () => window.removeEventListener('popstate', handler);
  },
};
