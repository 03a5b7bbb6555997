// The city context every map draws under its markers when no tile service is configured: the
// lake, the city's outline, the neighbourhoods, the subway and the streets (derived from our
// food premises' addresses: scripts/map-streets/streets.ts). One GeoJSON file
// (static/map/toronto-context.json, made by scripts/build-map-context.ts from the City's open
// data) feeds both the browser's maplibre layers and the server's static map image, and these
// colours keep the two looking alike.

export const MAP_CONTEXT_PATH = '/static/map/toronto-context.json';

export type ContextLayer = 'lake' | 'city' | 'neighbourhood' | 'neighbourhood-label' | 'line' | 'station' | 'street';

export interface ContextProperties {
  layer: ContextLayer;
  /** Neighbourhood, station or street name ("Queen St W"). */
  name?: string;
  /** Neighbourhood id (neighbourhood, neighbourhood-label). */
  id?: number;
  /** Subway line number as text, '1', '2' or '4' (line); lines at a station, e.g. '1;2'. */
  line?: string;
  lines?: string;
  /** CSS colour of a subway line. */
  color?: string;
  /** Street: the addresses supporting the whole street (higher first), and its class from that. */
  rank?: number;
  class?: 'major' | 'minor';
}

export interface ContextFeature {
  type: 'Feature';
  properties: ContextProperties;
  geometry: { type: 'Polygon'; coordinates: number[][][] } | { type: 'LineString'; coordinates: number[][] } | { type: 'Point'; coordinates: number[] };
}

export interface ContextCollection {
  type: 'FeatureCollection';
  features: ContextFeature[];
}

/** The TTC's own line colours. */
export const SUBWAY_LINES: Record<string, { name: string; color: string }> = {
  '1': { name: 'Line 1 Yonge-University', color: '#f8c300' },
  '2': { name: 'Line 2 Bloor-Danforth', color: '#00923f' },
  '4': { name: 'Line 4 Sheppard', color: '#a21a68' },
};

export const CONTEXT_COLORS = {
  land: '#f4f1ea',
  outsideCity: '#e9e6de',
  lake: '#a9cfe8',
  lakeLine: '#7fb2d6',
  cityLine: '#8a8376',
  neighbourhoodLine: '#b9b2a4',
  neighbourhoodLabel: '#5b5447',
  stationFill: '#ffffff',
  stationStroke: '#1f2937',
  stationLabel: '#1f2937',
  halo: '#ffffff',
  street: '#ffffff',
  streetCasing: '#cfc8b8',
  streetLabel: '#4a4438',
} as const;
