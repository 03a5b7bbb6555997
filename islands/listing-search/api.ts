import type { ListingDTO, Page } from '../../shared/dto';
import type { HubOptions } from '../../shared/listing-hub';
import { api, type QueryValue } from '../common/api';
import { SUGGEST_LIMIT, type SuggestedPlace } from './slices/suggestions';

// The calls this island makes: GET /api/v2/listings/ (spec 2 §7) for the search and for the
// place type-ahead (names by prefix first, then substring: the API's order for keywords
// without an ordering; the simple bundle is enough for a name and a position), and the
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
    l.coordinates ? [{ id: l.id, name: l.name, address: l.address ?? '', lat: l.coordinates.latitude, long: l.coordinates.longitude }] : [],
  );
}

export const listingSearchApi: ListingSearchApi = {
  search: (query) => api.get<Page<ListingDTO>>('/api/v2/listings/', query),
  options: (url) => api.get<HubOptions>(url),
  suggest: async (text) => placesOf(await api.get<Page<SimpleListing>>('/api/v2/listings/', { keywords: text.trim(), bundle_type: 'simple', limit: SUGGEST_LIMIT })),
};
