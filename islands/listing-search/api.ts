import type { ListingDTO, Page } from '../../shared/dto';
import { api, type QueryValue } from '../common/api';
import { SUGGEST_LIMIT, type SuggestedPlace } from './slices/suggestions';

// The calls this island makes, both GET /api/v2/listings/ (spec 2 §7): the search, and the
// place type-ahead (names by prefix first, then substring: the API's order for keywords
// without an ordering; the simple bundle is enough for a name and a position).
export interface ListingSearchApi {
  search(query: Record<string, QueryValue>): Promise<Page<ListingDTO>>;
  suggest(text: string): Promise<SuggestedPlace[]>;
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
  suggest: async (text) => placesOf(await api.get<Page<SimpleListing>>('/api/v2/listings/', { keywords: text.trim(), bundle_type: 'simple', limit: SUGGEST_LIMIT })),
};
