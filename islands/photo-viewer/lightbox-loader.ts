import { useSyncExternalStore } from 'react';

// The lightbox's code (yet-another-react-lightbox and its styles, components/Lightbox.tsx) is
// its own chunk. It is read ahead: once the thumbnails are near the screen and the page is idle,
// or at the first sign of a tap (pointer over, focus), so the first open rarely waits; when it
// does, the viewer shows its progress at once (ViewerLoading) and the lightbox when the code is
// here. A page whose thumbnails are never scrolled near never downloads it.

type LightboxComponent = (typeof import('./components/Lightbox'))['default'];

export type LightboxLoad = { status: 'idle' | 'loading' | 'failed'; Lightbox: null } | { status: 'loaded'; Lightbox: LightboxComponent };

let load: LightboxLoad = { status: 'idle', Lightbox: null };
let inFlight: Promise<void> | null = null;
const listeners = new Set<() => void>();

function set(next: LightboxLoad) {
  load = next;
  // Starting to load changes nothing on screen: the viewer re-renders for the outcome only.
  if (next.status !== 'loading') listeners.forEach((l) => l());
}

/** Starts reading the lightbox's code (once; again after a failure). */
export function loadLightbox(): Promise<void> {
  if (load.status === 'loaded') return Promise.resolve();
  if (!inFlight) {
    set({ status: 'loading', Lightbox: null });
    inFlight = import('./components/Lightbox').then(
      (m) => set({ status: 'loaded', Lightbox: m.default }),
      () => {
        inFlight = null;
        set({ status: 'failed', Lightbox: null });
      },
    );
  }
  return inFlight;
}

/** Where the lightbox's code is: the viewer renders it once loaded. */
export function useLightboxLoad(): LightboxLoad {
  return useSyncExternalStore(
    (onChange) => {
      listeners.add(onChange);
      return () => void listeners.delete(onChange);
    },
    () => load,
  );
}

type IdleWindow = { requestIdleCallback?: (cb: () => void, opts?: { timeout: number }) => number };

/** Reads the code ahead once `el` (the thumbnails) is within a screen of the viewport, in idle time. */
export function preloadWhenNear(el: Element): () => void {
  if (load.status !== 'idle' || typeof IntersectionObserver === 'undefined') return () => undefined;
  const idle = (window as IdleWindow).requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 200));
  const io = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      io.disconnect();
      idle(() => void loadLightbox(), { timeout: 2000 });
    },
    { rootMargin: '100% 0px' },
  );
  io.observe(el);
  return () => io.disconnect();
}
