import type { QueryValue } from '../common/api';
import { bboxParam } from '../maps/geo';
import { NEARBY_ID, type Criteria } from './types';

// Criteria → the API query (spec 2 §3 listing search params) and → the page URL (spec 2 §2:
// the island's parameter names, the ones the hub page reads on a reload).

export const PAGE_LIMIT = 40;

/** What the hub page orders by when the URL names no ordering (server/apps/listings/hub-page.ts). */
export function serverDefaultOrdering(c: Pick<Criteria, 'subwayStopId' | 'subcategory'>): string {
  if (c.subwayStopId) return 'distance';
  return c.subcategory ? 'smart_review' : 'name';
}

export function hasPoint(c: Criteria): boolean {
  return c.neighborhoodId === NEARBY_ID && c.lat !== null && c.long !== null;
}

export function apiQuery(c: Criteria, fixedNeighbourhood: number | null, offset: number, limit = PAGE_LIMIT): Record<string, QueryValue> {
  const neighbourhood = fixedNeighbourhood ?? (c.neighborhoodId && c.neighborhoodId > 0 ? c.neighborhoodId : null);
  const point = hasPoint(c);
  return {
    type: c.category,
    sub_type: c.subcategory,
    default_neighborhood: neighbourhood,
    latitude: point ? c.lat : null,
    longitude: point ? c.long : null,
    subway_stop: c.subwayStopId,
    service: c.selectedServiceSlug,
    features: c.selectedFeatures.length ? c.selectedFeatures.join(',') : null,
    appears_in_best_of_lists: c.bestOf ? 'true' : null,
    bbox: c.bbox ? bboxParam(c.bbox) : null,
    ordering: c.ordering,
    bundle_type: 'medium',
    limit,
    offset,
  };
}

/** The hub path the criteria name: /{type}/, /{type}/{sub}/; a neighbourhood hub keeps its own path. */
export function hubPath(c: Criteria, currentPath: string, fixedNeighbourhood: number | null): string {
  if (fixedNeighbourhood !== null) return currentPath;
  return c.subcategory ? `/${c.category}/${c.subcategory}/` : `/${c.category}/`;
}

/** The page URL (path and query) for these criteria, as history.replaceState keeps it. */
export function pageUrl(c: Criteria, opts: { path: string; fixedNeighbourhood: number | null; page: number }): string {
  const q = new URLSearchParams();
  if (opts.fixedNeighbourhood === null && c.neighborhoodId && c.neighborhoodId > 0) q.set('neighborhoodId', String(c.neighborhoodId));
  if (hasPoint(c)) {
    q.set('lat', String(c.lat));
    q.set('long', String(c.long));
  }
  if (c.subwayStopId) q.set('subwayStopId', String(c.subwayStopId));
  if (c.selectedSuggestion) q.set('selectedSuggestion', c.selectedSuggestion);
  if (c.selectedServiceSlug) q.set('selectedServiceSlug', c.selectedServiceSlug);
  if (c.selectedFeatures.length) q.set('selectedFeatures', c.selectedFeatures.join(','));
  if (c.bestOf) q.set('bestOf', 'true');
  if (c.ordering !== serverDefaultOrdering(c)) q.set('ordering', c.ordering);
  if (opts.page > 1) q.set('page', String(opts.page));
  const qs = q.toString();
  return hubPath(c, opts.path, opts.fixedNeighbourhood) + (qs ? `?${qs}` : '');
}

/** lat/long in the URL (a reload after 'Nearby'): the hub page cannot search by them; the island does. */
export function pointFromUrl(search: string): { lat: number; long: number } | null {
  const q = new URLSearchParams(search);
  const lat = Number(q.get('lat'));
  const long = Number(q.get('long'));
  if (!q.get('lat') || !q.get('long') || !Number.isFinite(lat) || !Number.isFinite(long) || Math.abs(lat) > 90 || Math.abs(long) > 180) return null;
  return { lat, long };
}
