import type { GeocodeResultDTO, ListingDTO, Page } from '../../shared/dto';
import type { HubOptions } from '../../shared/listing-hub';
import { api, type QueryValue } from '../common/api';
import { SUGGEST_LIMIT, type SuggestedPlace } from './slices/suggestions';

// The calls this island makes: GET /api/v2/listings/ (spec 2 §7) for the search and for the
// place type-ahead (names by prefix first, then substring: the API's order for keywords
// without an ordering; the simple bundle is enough for a name and a position), with GET
// /api/v2/geocode/ for the addresses, stations and neighbourhoods it also offers, and the
// filter options once, at the URL the hub page names (the browser keeps them).
export interface ListingSearchApi {
  search(query: Record<string, QueryValue>): Promise<Page<ListingDTO>>;
  suggest(text: string): Promise<SuggestedPlace[]>;
  options(url: string): Promise<HubOptions>;
}

type SimpleListing = Pick<ListingDTO, 'id' | 'name' | 'address' | 'coordinates'>;

/** Places without a position cannot be searched around: they are not offered. */
export function placesOf(page: Page<SimpleListing>): SuggestedPlace[] {
  return page.results.flatMap((l) =>
    l.coordinates ? [{ kind: 'place' as const, id: l.id, name: l.name, address: l.address ?? '', lat: l.coordinates.latitude, long: l.coordinates.longitude }] : [],
  );
}

/** Points the geocoder answers, other than places (the listings search names those, with their addresses). */
export function pointsOf(results: GeocodeResultDTO[]): SuggestedPlace[] {
  return results.flatMap((r) =>
    r.kind === 'place' ? [] : [{ kind: r.kind, id: 0, name: r.label, address: '', lat: r.coordinates.latitude, long: r.coordinates.longitude }],
  );
}

/** Addresses, stations and neighbourhoods first (a few), then places; a failed geocoder leaves the places. */
async function suggest(text: string): Promise<SuggestedPlace[]> {
  const q = text.trim();
  const [points, places] = await Promise.all([
    api
      .get<{ results: GeocodeResultDTO[] }>('/api/v2/geocode/', { q })
      .then((r) => pointsOf(r.results).slice(0, SUGGEST_POINTS))
      .catch(() => []),
    api.get<Page<SimpleListing>>('/api/v2/listings/', { keywords: q, bundle_type: 'simple', limit: SUGGEST_LIMIT }).then(placesOf),
  ]);
  return [...points, ...places];
}

/** At most this many addresses, stations and neighbourhoods above the places. */
export const SUGGEST_POINTS = 4;

export const listingSearchApi: ListingSearchApi = {
  search: (query) => api.get<Page<ListingDTO>>('/api/v2/listings/', query),
  options: (url) => api.get<HubOptions>(url),
  suggest,
};
