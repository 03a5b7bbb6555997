import type * as maplibregl from 'maplibre-gl';
import { CONTEXT_COLORS as C, MAP_CONTEXT_PATH } from '../../../shared/map-context';
import type { MapTileSettings } from '../../../shared/dto';

// What a map is drawn on (only maplibre-engine.ts imports this, so it is in the map chunk):
// - MAP_STYLE_URL: a hosted MapLibre style (OpenFreeMap, Protomaps ...), used as it is;
// - MAP_PMTILES_URL: our own .pmtiles extract, drawn with the Protomaps basemap layers (pmtiles
//   and @protomaps/basemaps load as a chunk of their own, only then);
// - neither (the default, and every test): the city context from our own data, one GeoJSON
//   file fetched with the map: the lake, the city's outline, neighbourhood outlines and names,
//   the streets traced from our food premises' addresses with their names (arterials from the
//   city view, the rest from street level), the subway lines and stations with their names.
//
// Labels: no glyphs URL is set, so maplibre draws each letter itself with the browser's fonts
// (TinySDF). "Noto Sans" falls back to the system sans-serif; nothing is fetched for text.

/** The layer ids of the city context, bottom to top (tests query them). */
export const CONTEXT_LAYERS = [
  'ctx-city',
  'ctx-lake',
  'ctx-neighbourhoods',
  'ctx-street-casing',
  'ctx-streets',
  'ctx-city-line',
  'ctx-street-labels',
  'ctx-neighbourhood-labels',
  'ctx-lines',
  'ctx-stations',
  'ctx-station-labels',
] as const;

const FONT = ['Noto Sans Regular'];
const FONT_BOLD = ['Noto Sans Bold'];

const layerIs = (name: string): maplibregl.FilterSpecification => ['==', ['get', 'layer'], name];

/**
 * Streets shown at a zoom: arterials (class major) from the city view, the others only from
 * street level (MINOR_STREETS_FROM), where they tell which corner a place is on. Zoom in a
 * filter is read at whole zooms, which is enough here.
 */
const MINOR_STREETS_FROM = 13;
const streetsShown: maplibregl.FilterSpecification = ['all', ['==', ['get', 'layer'], 'street'], ['any', ['==', ['get', 'class'], 'major'], ['>=', ['zoom'], MINOR_STREETS_FROM]]];
const major: maplibregl.ExpressionSpecification = ['==', ['get', 'class'], 'major'];
/** Street width in pixels by zoom, arterials wider. */
const streetWidth = (extra: number): maplibregl.DataDrivenPropertyValueSpecification<number> => [
  'interpolate', ['exponential', 1.6], ['zoom'],
  10.5, ['case', major, 0.8 + extra, 0.4 + extra],
  13, ['case', major, 2.5 + extra, 1.2 + extra],
  15, ['case', major, 7 + extra, 4 + extra],
  17, ['case', major, 16 + extra, 10 + extra],
];

/** The context style: our GeoJSON under everything the page adds. */
export function contextStyle(origin: string): maplibregl.StyleSpecification {
  return {
    version: 8,
    sources: {
      context: {
        type: 'geojson',
        data: new URL(MAP_CONTEXT_PATH, origin).href,
        attribution: 'City of Toronto Open Data (OGL – Toronto)',
      },
    },
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': C.outsideCity } },
      { id: 'ctx-city', type: 'fill', source: 'context', filter: layerIs('city'), paint: { 'fill-color': C.land } },
      { id: 'ctx-lake', type: 'fill', source: 'context', filter: layerIs('lake'), paint: { 'fill-color': C.lake, 'fill-outline-color': C.lakeLine } },
      {
        id: 'ctx-neighbourhoods',
        type: 'line',
        source: 'context',
        filter: layerIs('neighbourhood'),
        paint: { 'line-color': C.neighbourhoodLine, 'line-width': ['interpolate', ['linear'], ['zoom'], 10, 0.5, 14, 1.2, 17, 2] },
      },
      {
        id: 'ctx-street-casing',
        type: 'line',
        source: 'context',
        filter: streetsShown,
        minzoom: 10.5,
        layout: { 'line-cap': 'round', 'line-join': 'round' },
        paint: { 'line-color': C.streetCasing, 'line-width': streetWidth(1.5) },
      },
      {
        id: 'ctx-streets',
        type: 'line',
        source: 'context',
        filter: streetsShown,
        minzoom: 10.5,
        layout: { 'line-cap': 'round', 'line-join': 'round' },
        paint: { 'line-color': C.street, 'line-width': streetWidth(0) },
      },
      { id: 'ctx-city-line', type: 'line', source: 'context', filter: layerIs('city'), paint: { 'line-color': C.cityLine, 'line-width': 1.5, 'line-dasharray': [4, 2] } },
      {
        // Street names along the line, arterials placed first; under the neighbourhood names,
        // which maplibre places before them (a higher layer wins a collision).
        id: 'ctx-street-labels',
        type: 'symbol',
        source: 'context',
        filter: streetsShown,
        minzoom: 12,
        layout: {
          'symbol-placement': 'line',
          'symbol-sort-key': ['-', ['get', 'rank']],
          'symbol-spacing': 300,
          'text-field': ['get', 'name'],
          'text-font': FONT,
          'text-size': ['interpolate', ['linear'], ['zoom'], 12, 10, 15, 12.5, 17, 14],
          'text-max-angle': 35,
          'text-padding': 2,
        },
        paint: { 'text-color': C.streetLabel, 'text-halo-color': C.halo, 'text-halo-width': 1.6 },
      },
      {
        id: 'ctx-neighbourhood-labels',
        type: 'symbol',
        source: 'context',
        filter: layerIs('neighbourhood-label'),
        minzoom: 10.5,
        layout: {
          'text-field': ['get', 'name'],
          'text-font': FONT,
          'text-size': ['interpolate', ['linear'], ['zoom'], 10.5, 10, 13, 12, 16, 14],
          'text-transform': 'uppercase',
          'text-letter-spacing': 0.06,
          'text-max-width': 8,
          'text-padding': 4,
        },
        paint: { 'text-color': C.neighbourhoodLabel, 'text-halo-color': C.halo, 'text-halo-width': 1.5 },
      },
      {
        id: 'ctx-lines',
        type: 'line',
        source: 'context',
        filter: layerIs('line'),
        layout: { 'line-cap': 'round', 'line-join': 'round' },
        paint: { 'line-color': ['get', 'color'], 'line-width': ['interpolate', ['linear'], ['zoom'], 10, 2.5, 14, 5, 17, 8] },
      },
      {
        id: 'ctx-stations',
        type: 'circle',
        source: 'context',
        filter: layerIs('station'),
        paint: {
          'circle-radius': ['interpolate', ['linear'], ['zoom'], 10, 2.5, 14, 5],
          'circle-color': C.stationFill,
          'circle-stroke-color': C.stationStroke,
          'circle-stroke-width': ['interpolate', ['linear'], ['zoom'], 10, 1, 14, 2],
        },
      },
      {
        id: 'ctx-station-labels',
        type: 'symbol',
        source: 'context',
        filter: layerIs('station'),
        minzoom: 11.5,
        layout: {
          'text-field': ['get', 'name'],
          'text-font': FONT_BOLD,
          'text-size': ['interpolate', ['linear'], ['zoom'], 11.5, 11, 15, 13],
          'text-anchor': 'left',
          'text-offset': [0.7, 0],
          'text-optional': true,
        },
        paint: { 'text-color': C.stationLabel, 'text-halo-color': C.halo, 'text-halo-width': 2 },
      },
    ],
  };
}

/** A URL as absolute, against the page (a site path such as /map-tiles/toronto.pmtiles). */
function absolute(url: string, origin: string): string {
  return new URL(url, origin).href;
}

let pmtilesRegistered = false;

/** The style a map starts from, as configured (see the module comment). */
export async function baseStyle(
  settings: MapTileSettings | undefined,
  origin: string,
  addProtocol: typeof maplibregl.addProtocol,
): Promise<{ style: maplibregl.StyleSpecification | string; context: boolean }> {
  if (settings?.styleUrl) return { style: absolute(settings.styleUrl, origin), context: false };
  if (settings?.pmtilesUrl) {
    const [pmtiles, basemaps] = await Promise.all([import('pmtiles'), import('@protomaps/basemaps')]);
    if (!pmtilesRegistered) {
      addProtocol('pmtiles', new pmtiles.Protocol().tile);
      pmtilesRegistered = true;
    }
    return {
      style: {
        version: 8,
        sources: {
          protomaps: { type: 'vector', url: `pmtiles://${absolute(settings.pmtilesUrl, origin)}`, attribution: '© OpenStreetMap contributors' },
        },
        layers: basemaps.layers('protomaps', basemaps.namedFlavor('light'), { lang: 'en' }),
      },
      context: false,
    };
  }
  return { style: contextStyle(origin), context: true };
}
