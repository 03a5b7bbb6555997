import type { Page } from '../../shared/dto';
import { api, type QueryValue } from '../common/api';
import type { SiteSearchAnswer, SiteSearchResultDTO } from '../../shared/site-search';

// The one call this island makes: GET /api/search/ (spec 2 §7).
export type SiteSearchPage = Page<SiteSearchResultDTO> & Omit<SiteSearchAnswer, 'count' | 'results'>;

export interface SearchApi {
  search(query: Record<string, QueryValue>): Promise<SiteSearchPage>;
}

export const searchApi: SearchApi = {
  search: (query) => api.get<SiteSearchPage>('/api/search/', query),
};
