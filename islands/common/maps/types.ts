// The map module's contract. Everything a page island needs from a map goes through these
// types, so the maplibre implementation (maplibre-engine.ts, its own lazily loaded chunk) can
// be swapped for a fake in jsdom tests, where WebGL does not exist.

export interface LatLng {
  latitude: number;
  longitude: number;
}

/** left (west lng), bottom (south lat), right (east lng), top (north lat): the API's bbox order. */
export type BBox = [number, number, number, number];

/** A marker: a circle drawn from our own data, with an HTML popup (no glyphs or sprites needed). */
export interface MapPoint extends LatLng {
  id: number;
  /** 'main' is the page's own listing, 'station' a subway stop; others are listings. */
  kind?: 'listing' | 'main' | 'station' | 'best-of';
  popupHtml: string;
}

/** A neighbourhood boundary as GeoJSON geometry, with what its popup says. */
export interface MapArea {
  id: number;
  name: string;
  geometry: { type: string; coordinates: unknown };
  popupHtml: string;
  highlight?: boolean;
}

export interface MapOptions {
  center: LatLng;
  /** In the spec's zoom levels (256-px tiles, MAP.*); the engine converts for maplibre. */
  zoom?: number;
  /** Fit the view to these instead of center/zoom (points first, then areas). */
  fit?: 'points' | 'areas' | 'none';
  points?: MapPoint[];
  stations?: MapPoint[];
  areas?: MapArea[];
  /** Cluster the listing points (search results can be hundreds). */
  cluster?: boolean;
  popupMaxWidth: number;
  /** An optional base style (tile service) if config ever provides one; our layers go on top. */
  styleUrl?: string | null;
  /** Accessible name of the map region. */
  label: string;
  /**
   * A pin the visitor drags (or places with a click) to say where something is: the places
   * desk's form. `onMove` hears where it was put; the handle's `movePin` moves it from outside.
   */
  pin?: { at: LatLng; label: string; onMove(p: LatLng): void };
}

export interface MapHandle {
  setPoints(points: MapPoint[], fit: boolean): void;
  bounds(): BBox;
  /** Called after the user pans or zooms and the map has stopped moving. */
  onMoveEnd(cb: () => void): () => void;
  /** Resolves when the map is not moving (at once if it is still). */
  whenStill(): Promise<void>;
  resize(): void;
  destroy(): void;
  /** With a `pin` option: moves it there and brings it into view (does not call onMove). */
  movePin?(p: LatLng): void;
}

export interface MapEngine {
  create(container: HTMLElement, opts: MapOptions): Promise<MapHandle>;
}
