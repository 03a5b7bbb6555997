import type { ListingDTO, Page } from '../../shared/dto';
import { api, type QueryValue } from '../common/api';

// The one call this island makes: GET /api/v2/listings/ (spec 2 §7).
export interface ListingSearchApi {
  search(query: Record<string, QueryValue>): Promise<Page<ListingDTO>>;
}

export const listingSearchApi: ListingSearchApi = {
  search: (query) => api.get<Page<ListingDTO>>('/api/v2/listings/', query),
};
