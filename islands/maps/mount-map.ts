import { api } from '../common/api';
import type { Page } from '../../shared/dto';
import { loadMapEngine } from './loader';
import { stationPoints, webglAvailable, type StationDTO } from './geo';
import type { MapHandle, MapOptions } from './types';

// Mounting for the page map islands (listing-map, neighbourhoods-map, neighbourhood-map). They
// are not React: a map is one imperative widget. The placeholder's server markup (an SVG map
// and links) is the fallback and stays until the interactive map has loaded; if this browser
// has no WebGL, or the map fails, the fallback simply stays.

export function mountMapIsland(name: string, options: (el: HTMLElement) => Promise<MapOptions | null>): void {
  const mount = () => {
    document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`).forEach((el) => {
      if (el.dataset.mounted) return;
      el.dataset.mounted = 'true';
      if (!webglAvailable()) {
        el.dataset.map = 'unavailable';
        return;
      }
      void drawInto(el, options);
    });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mount, { once: true });
  else mount();
}

async function drawInto(el: HTMLElement, options: (el: HTMLElement) => Promise<MapOptions | null>): Promise<MapHandle | null> {
  const canvas = document.createElement('div');
  canvas.className = 'map-canvas';
  el.classList.add('map-island', 'is-map-loading');
  el.append(canvas);
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
    if (import.meta.env?.DEV) console.warn(`Map not shown: ${(err as Error).message}`);
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
