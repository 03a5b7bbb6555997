import * as maplibregl from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import type { FeatureCollection, Geometry } from 'geojson';
import type { BBox, MapArea, MapEngine, MapHandle, MapOptions, MapPoint } from './types';
import { boundsOf, geometryPoints, MAP } from './geo';
import { baseStyle } from './base-style';
import { siteConfig } from '../initial-state';
import { THEME_COLOR } from '../../../shared/constants';

// The maplibre implementation of MapEngine. Only loader.ts imports it, dynamically, so it and
// maplibre-gl (the vendor-maplibre chunk) download only on map pages / when a map view opens.
// Under everything: the configured base map, or our own city context (base-style.ts). On top:
// the page's neighbourhood boundaries as fill and line layers, listings and subway stations as
// circle layers (clustered listings), with HTML popups.

maplibregl.setWorkerUrl(workerUrl);

const COLORS = {
  area: '#d9e4d1',
  areaHighlight: '#f6c343',
  areaLine: '#6b7a5e',
  listing: THEME_COLOR,
  bestOf: '#7a1fa2',
  main: '#0b57d0',
  station: '#ffffff',
  stationStroke: '#1f2937',
  cluster: THEME_COLOR,
};

/**
 * The spec's zoom levels (spec 2 §9: 15 for one marker, 12 for the city, 14 for the static map)
 * count 256-px tiles, as web map services and the server's static map do; maplibre counts
 * 512-px tiles, so the same view is one level lower here.
 */
const ml = (specZoom: number) => specZoom - 1;

/** Reopen a popup only after this long when one was just closed (spec 2 §4). */
const POPUP_REOPEN_DELAY_MS = 500;

function pointsCollection(points: MapPoint[]): FeatureCollection {
  return {
    type: 'FeatureCollection',
    features: points.map((p) => ({
      type: 'Feature',
      id: p.id,
      geometry: { type: 'Point', coordinates: [p.longitude, p.latitude] },
      properties: { id: p.id, kind: p.kind ?? 'listing', popup: p.popupHtml },
    })),
  };
}

function areasCollection(areas: MapArea[]): FeatureCollection {
  return {
    type: 'FeatureCollection',
    features: areas.map((a) => ({
      type: 'Feature',
      id: a.id,
      geometry: a.geometry as Geometry,
      properties: { id: a.id, name: a.name, popup: a.popupHtml, highlight: Boolean(a.highlight) },
    })),
  };
}

export const maplibreEngine: MapEngine = {
  async create(container: HTMLElement, opts: MapOptions): Promise<MapHandle> {
    const base = opts.styleUrl ? { style: opts.styleUrl, context: false } : await baseStyle(siteConfig().map, window.location.href, maplibregl.addProtocol);
    const map = new maplibregl.Map({
      container,
      style: base.style,
      center: [opts.center.longitude, opts.center.latitude],
      zoom: ml(opts.zoom ?? MAP.defaultZoom),
      minZoom: ml(MAP.minZoom),
      maxZoom: ml(MAP.maxZoom),
      // The context source credits the City itself; over another base map, our boundaries and stations still need it.
      attributionControl: { compact: true, customAttribution: base.context ? undefined : 'Boundaries and stations: City of Toronto Open Data' },
      cooperativeGestures: false,
    });
    map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
    map.getCanvas().setAttribute('aria-label', opts.label);
    // Browser tests ask the map what it drew (queryRenderedFeatures on the context layers).
    (container as HTMLElement & { maplibreMap?: maplibregl.Map }).maplibreMap = map;

    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('The map did not load.')), 15_000);
      map.once('load', () => {
        clearTimeout(timer);
        resolve();
      });
      const failed = (e: maplibregl.ErrorEvent & { sourceId?: string }) => {
        // A source that fails (a tile, the context file) leaves a map that still works.
        if (e.sourceId) return;
        map.off('error', failed);
        clearTimeout(timer);
        reject(e.error ?? new Error('The map failed.'));
      };
      map.on('error', failed);
      map.once('load', () => map.off('error', failed));
    }).catch((err) => {
      map.remove();
      throw err;
    });

    let points = opts.points ?? [];
    map.addSource('areas', { type: 'geojson', data: areasCollection(opts.areas ?? []) });
    // The page's areas go under the context's names (streets', neighbourhoods') and subway, so those stay readable.
    const underLabels = base.context ? 'ctx-street-labels' : undefined;
    map.addLayer({ id: 'areas-fill', type: 'fill', source: 'areas', paint: { 'fill-color': ['case', ['get', 'highlight'], COLORS.areaHighlight, COLORS.area], 'fill-opacity': ['case', ['get', 'highlight'], 0.45, 0.35] } }, underLabels);
    map.addLayer({ id: 'areas-line', type: 'line', source: 'areas', paint: { 'line-color': COLORS.areaLine, 'line-width': ['case', ['get', 'highlight'], 2.5, 1] } }, underLabels);
    map.addSource('stations', { type: 'geojson', data: pointsCollection(opts.stations ?? []) });
    map.addLayer({ id: 'stations', type: 'circle', source: 'stations', paint: { 'circle-radius': 5, 'circle-color': COLORS.station, 'circle-stroke-color': COLORS.stationStroke, 'circle-stroke-width': 2.5 } }, base.context ? 'ctx-station-labels' : undefined);
    map.addSource('points', { type: 'geojson', data: pointsCollection(points), cluster: Boolean(opts.cluster), clusterRadius: 40, clusterMaxZoom: ml(15) });
    if (opts.cluster) {
      map.addLayer({
        id: 'clusters',
        type: 'circle',
        source: 'points',
        filter: ['has', 'point_count'],
        paint: {
          'circle-color': COLORS.cluster,
          'circle-opacity': 0.8,
          'circle-stroke-color': '#fff',
          'circle-stroke-width': 2,
          'circle-radius': ['step', ['get', 'point_count'], 12, 10, 16, 50, 22],
        },
      });
    }
    map.addLayer({
      id: 'points',
      type: 'circle',
      source: 'points',
      filter: ['!', ['has', 'point_count']],
      paint: {
        'circle-radius': ['match', ['get', 'kind'], 'main', 10, 7],
        'circle-color': ['match', ['get', 'kind'], 'main', COLORS.main, 'best-of', COLORS.bestOf, COLORS.listing],
        'circle-stroke-color': '#fff',
        'circle-stroke-width': 2,
      },
    });

    // ## Popups: one at a time; a marker beats the area under it.
    let popup: maplibregl.Popup | null = null;
    let closedAt = 0;
    let pending: ReturnType<typeof setTimeout> | null = null;
    const openPopup = (lngLat: maplibregl.LngLatLike, html: string) => {
      if (pending) clearTimeout(pending);
      const show = () => {
        popup?.remove();
        // Never wider than the map (454 px does not fit a phone's map).
        const maxWidth = Math.max(200, Math.min(opts.popupMaxWidth, container.clientWidth - 24));
        popup = new maplibregl.Popup({ maxWidth: `${maxWidth}px`, focusAfterOpen: true }).setLngLat(lngLat).setHTML(html).addTo(map);
        popup.on('close', () => (closedAt = Date.now()));
      };
      if (Date.now() - closedAt < POPUP_REOPEN_DELAY_MS) pending = setTimeout(show, POPUP_REOPEN_DELAY_MS);
      else show();
    };
    const interactive = ['points', 'stations', ...(opts.cluster ? ['clusters'] : []), 'areas-fill'];
    map.on('click', async (e) => {
      const hit = map.queryRenderedFeatures(e.point, { layers: interactive })[0];
      if (!hit) return;
      const props = hit.properties as { popup?: string; cluster_id?: number };
      if (hit.layer.id === 'clusters' && props.cluster_id !== undefined) {
        const source = map.getSource('points') as maplibregl.GeoJSONSource;
        const zoom = await source.getClusterExpansionZoom(props.cluster_id);
        map.easeTo({ center: (hit.geometry as GeoJSON.Point).coordinates as [number, number], zoom });
        return;
      }
      if (props.popup) openPopup(hit.geometry.type === 'Point' ? ((hit.geometry as GeoJSON.Point).coordinates as [number, number]) : e.lngLat, props.popup);
    });
    for (const layer of interactive) {
      map.on('mouseenter', layer, () => (map.getCanvas().style.cursor = 'pointer'));
      map.on('mouseleave', layer, () => (map.getCanvas().style.cursor = ''));
    }

    const fit = (box: BBox | null, single: boolean) => {
      if (!box) return;
      if (single) map.jumpTo({ center: [box[0], box[1]], zoom: ml(MAP.singleZoom) });
      else map.fitBounds([[box[0], box[1]], [box[2], box[3]]], { padding: MAP.padding, maxZoom: ml(MAP.singleZoom), animate: false });
    };
    const fitPoints = (ps: MapPoint[]) => fit(boundsOf(ps), ps.length === 1);
    const firstFit = () => {
      if (opts.fit === 'points' && points.length) fitPoints(points);
      else if (opts.fit === 'areas' && opts.areas?.length) fit(boundsOf(opts.areas.flatMap((a) => geometryPoints(a.geometry))), false);
    };
    // A page island's canvas has no height until the map is ready (its fallback shows till
    // then), and fitting a box into nothing picks a wild zoom: fit on the first resize instead.
    let pendingFit: (() => void) | null = container.clientWidth && container.clientHeight ? (firstFit(), null) : firstFit;

    // ## The pin (places desk): dragged, or put where the map is clicked off every marker.
    let pin: maplibregl.Marker | null = null;
    if (opts.pin) {
      const { at, label, onMove } = opts.pin;
      const marker = new maplibregl.Marker({ draggable: true, color: COLORS.main }).setLngLat([at.longitude, at.latitude]).addTo(map);
      marker.getElement().setAttribute('aria-label', label);
      marker.getElement().dataset.pin = 'true';
      const moved = () => onMove({ latitude: marker.getLngLat().lat, longitude: marker.getLngLat().lng });
      marker.on('dragend', moved);
      map.on('click', (e) => {
        if (map.queryRenderedFeatures(e.point, { layers: interactive }).length) return;
        marker.setLngLat(e.lngLat);
        moved();
      });
      pin = marker;
    }

    const listeners = new Set<() => void>();
    map.on('moveend', (e) => {
      // Only the visitor's own panning and zooming, not our fitBounds.
      if ((e as { originalEvent?: unknown }).originalEvent) listeners.forEach((cb) => cb());
    });

    return {
      setPoints(next, refit) {
        points = next;
        popup?.remove();
        (map.getSource('points') as maplibregl.GeoJSONSource).setData(pointsCollection(points));
        if (refit && points.length) fitPoints(points);
      },
      bounds() {
        const b = map.getBounds();
        return [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()];
      },
      onMoveEnd(cb) {
        listeners.add(cb);
        return () => listeners.delete(cb);
      },
      whenStill() {
        return map.isMoving() ? new Promise<void>((resolve) => map.once('moveend', () => resolve())) : Promise.resolve();
      },
      resize() {
        map.resize();
        if (pendingFit && container.clientWidth && container.clientHeight) {
          pendingFit();
          pendingFit = null;
        }
      },
      movePin(p) {
        if (!pin) return;
        pin.setLngLat([p.longitude, p.latitude]);
        map.jumpTo({ center: [p.longitude, p.latitude], zoom: Math.max(map.getZoom(), ml(MAP.singleZoom)) });
      },
      destroy() {
        if (pending) clearTimeout(pending);
        map.remove();
      },
    };
  },
};
