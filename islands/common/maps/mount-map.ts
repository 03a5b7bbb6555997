import { api } from '../api';
import type { Page } from '../../../shared/dto';
import { loadMapEngine } from './loader';
import { stationPoints, webglAvailable, type StationDTO } from './geo';
import type { MapHandle, MapOptions } from './types';

// Mounting for the page map islands (listing-map, neighbourhoods-index-map, neighbourhood-page-map,
// patio-map). They are not React: a map is one imperative widget. The placeholder's server
// markup (a static map image or an SVG map, and links) is the fallback and stays until the
// interactive map has loaded; if this browser has no WebGL, or the map fails, the fallback
// simply stays.
//
// Maplibre is a megabyte of script that keeps a phone's main thread busy for seconds, and most
// of these maps sit below the fold: an island draws only when it comes within NEAR of the
// viewport (at once when it is already in view). A placeholder may mark a stand-in
// (`data-map-frame`, the listing page's static map image): the map is drawn over it at exactly
// its size, so nothing moves when the map appears.

/**
 * How close to the viewport a map starts loading. Small on purpose: on a phone the listing
 * page's map starts about 100 px below the fold, and a wider margin would load maplibre with
 * the page; the stand-in shows meanwhile.
 */
export const NEAR = '48px 0px';

export function mountMapIsland(name: string, options: (el: HTMLElement) => Promise<MapOptions | null>): void {
  const mount = () => {
    document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`).forEach((el) => {
      if (el.dataset.mounted) return;
      el.dataset.mounted = 'true';
      whenNear(el, () => {
        // Asked here, not at load: creating a WebGL context costs the main thread too.
        if (!webglAvailable()) {
          el.dataset.map = 'unavailable';
          return;
        }
        void drawInto(el, options);
      });
    });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mount, { once: true });
  else mount();
}

/** Runs `draw` once, when `el` comes within NEAR of the viewport. */
export function whenNear(el: HTMLElement, draw: () => void): void {
  if (typeof IntersectionObserver === 'undefined') {
    draw();
    return;
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      draw();
    },
    { rootMargin: NEAR },
  );
  observer.observe(el);
}

async function drawInto(el: HTMLElement, options: (el: HTMLElement) => Promise<MapOptions | null>): Promise<MapHandle | null> {
  const canvas = document.createElement('div');
  canvas.className = 'map-canvas';
  const frame = el.querySelector<HTMLElement>('[data-map-frame]');
  el.classList.add('map-island', 'is-map-loading');
  if (frame) el.classList.add('is-map-framed');
  (frame ?? el).append(canvas);
  try {
    const [engine, opts] = await Promise.all([loadMapEngine(), options(el)]);
    if (!opts) throw new Error('Nothing to map.');
    const handle = await engine.create(canvas, opts);
    el.classList.replace('is-map-loading', 'is-map-ready');
    el.dataset.map = 'ready';
    handle.resize();
    return handle;
  } catch (err) {
    canvas.remove();
    el.classList.remove('is-map-loading');
    el.dataset.map = 'unavailable';
    // Why, for whoever looks in devtools (no console noise for readers without WebGL).
    el.dataset.mapError = (err as Error).message;
    return null;
  }
}

/** Subway stations for a map; an empty list if the call fails (the map works without them). */
export async function fetchStations(): Promise<ReturnType<typeof stationPoints>> {
  try {
    const page = await api.get<Page<StationDTO>>('/api/v2/subway-stops/', { limit: 200 });
    return stationPoints(page.results);
  } catch {
    return [];
  }
}
