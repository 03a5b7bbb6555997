// The browser history the viewer writes (spec 2 §2: opening a photo pushes its share path,
// closing returns to the closed path). Behind this interface so the sagas can be tested.
import { dropPendingAddress, pendingAddress, replaceAddressAfterPaint, writePendingAddress } from '../common/address-after-paint';

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

// A move's address is written after the frame that shows the new photo (the browser's own work
// for it held that frame back); until then the viewer reads the address it asked for, and
// Back/Forward drops it (the entry it was for is no longer the current one).
export const browserHistory: ViewerHistory = {
  push: (path, state) => {
    writePendingAddress();
    window.history.pushState(state, '', path);
  },
  replace: (path, state) => replaceAddressAfterPaint(path, { state }),
  back: () => {
    writePendingAddress();
    window.history.back();
  },
  current: () => {
    const waiting = pendingAddress();
    return viewerState(waiting ? waiting.state : window.history.state);
  },
  location: () => pendingAddress()?.url ?? window.location.pathname + window.location.search,
  listen(onPop) {
    const handler = (e: PopStateEvent) => {
      dropPendingAddress();
      onPop(viewerState(e.state));
    };
    window.addEventListener('popstate', handler);
    return () => window.removeEventListener('popstate', handler);
  },
};
