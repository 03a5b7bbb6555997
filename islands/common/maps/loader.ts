import type { MapEngine } from './types';
import { webglAvailable } from './geo';

// The one door to maplibre: a dynamic import, so maplibre-engine.ts and the vendor-maplibre
// chunk load only when a map is about to be drawn. Tests mock this module.

export class MapUnavailableError extends Error {
  constructor(message = 'This browser cannot draw the interactive map.') {
    super(message);
    this.name = 'MapUnavailableError';
  }
}

let engine: Promise<MapEngine> | null = null;

export function loadMapEngine(): Promise<MapEngine> {
  if (!webglAvailable()) return Promise.reject(new MapUnavailableError());
  engine ??= import('./maplibre-engine').then((m) => m.maplibreEngine);
  engine.catch(() => (engine = null));
  return engine;
}
