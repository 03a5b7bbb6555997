import { PAGE_SIZE } from './constants';

// The site search page's rules shared by the server (/search, rendered without JavaScript) and
// the search island: its URL (q, categories, ordering, offset; defaults left out), the API
// query, the category names and the spec's messages (spec 2 §2 "Search app", §8).

export const SITE_SEARCH_CATEGORIES = ['articles', 'listings', 'events', 'videos', 'contests'] as const;
export type SiteSearchCategory = (typeof SITE_SEARCH_CATEGORIES)[number];
export type SiteSearchOrdering = 'relevancy' | '-date_published';

export const SITE_SEARCH_CATEGORY_NAMES: Record<SiteSearchCategory, string> = {
  articles: 'Articles',
  listings: 'Places',
  events: 'Events',
  videos: 'Videos',
  contests: 'Contests',
};

/** The sort tabs, in the spec's order. */
export const SITE_SEARCH_TABS: ReadonlyArray<{ label: string; ordering: SiteSearchOrdering }> = [
  { label: 'DATE', ordering: '-date_published' },
  { label: 'RELEVANCY', ordering: 'relevancy' },
];

export interface SiteSearchParams {
  q: string;
  /** 'all' or a comma list of categories. */
  categories: string;
  ordering: SiteSearchOrdering;
  offset: number;
}

export const DEFAULT_SITE_SEARCH: SiteSearchParams = { q: '', categories: 'all', ordering: 'relevancy', offset: 0 };

/** The server's page size for an ordering (18 by relevancy: a grid of 3 and 2; else 20). */
export function siteSearchLimit(ordering: SiteSearchOrdering): number {
  return ordering === 'relevancy' ? PAGE_SIZE.searchRelevancy : PAGE_SIZE.searchDefault;
}

/** /search?q=…&categories=…&ordering=…&offset=…, leaving out what is the default. */
export function siteSearchUrl(p: SiteSearchParams): string {
  const qs = new URLSearchParams();
  if (p.q) qs.set('q', p.q);
  if (p.categories && p.categories !== 'all') qs.set('categories', p.categories);
  if (p.ordering !== 'relevancy') qs.set('ordering', p.ordering);
  if (p.offset > 0) qs.set('offset', String(p.offset));
  const s = qs.toString();
  return s ? `/search?${s}` : '/search';
}

/** The page's parameters from its query string; what is not understood is the default. */
export function siteSearchParamsFromQuery(search: string): SiteSearchParams {
  const qs = new URLSearchParams(search);
  const offset = Number(qs.get('offset'));
  const ordering = qs.get('ordering');
  return {
    q: (qs.get('q') ?? '').trim(),
    categories: (qs.get('categories') ?? '').trim().toLowerCase() || 'all',
    ordering: ordering === '-date_published' ? '-date_published' : 'relevancy',
    offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
  };
}

/** The name of the categories searched, for the no-results message; null for all of them. */
export function siteSearchCategoryName(categories: string): string | null {
  if (!categories || categories === 'all') return null;
  return categories
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter(Boolean)
    .map((c) => SITE_SEARCH_CATEGORY_NAMES[c as SiteSearchCategory] ?? SITE_SEARCH_CATEGORY_NAMES[`${c}s` as SiteSearchCategory] ?? c)
    .join(', ');
}

/** Spec 2 §8, word for word; it is followed by SEARCH_EDIT_PROMPT. */
export function noResultsMessage(q: string, categoryName: string | null): string {
  return `Sorry there are no results for “${q}”${categoryName ? ` in ${categoryName}.` : ' anywhere on the site.'}`;
}

export const SEARCH_EDIT_PROMPT = 'Please edit your search above.';

/**
 * The results heading: '18 results', 'About 2,400 results', '3 results for “pizza”' (typo
 * tolerance corrected the query), '2 results, with headlines for “pizza”' (full text found
 * other things, headlines came through the corrected words).
 */
export function resultsHeading(r: { count: number; count_estimated?: boolean; match?: string; corrected?: string | null }, q: string): string {
  const n = `${r.count_estimated ? 'About ' : ''}${r.count.toLocaleString('en-CA')} ${r.count === 1 ? 'result' : 'results'}`;
  if (r.match === 'similar') return r.corrected ? `${n} for “${r.corrected}”` : `${n} for names like “${q}”`;
  return r.corrected ? `${n}, with headlines for “${r.corrected}”` : n;
}

/** One result as GET /api/search/ answers it (the island reads these fields only). */
export interface SiteSearchResultDTO {
  category: SiteSearchCategory;
  id: number;
  title: string;
  /** Escaped HTML with the matched words in <mark>. */
  highlighted_title: string;
  share_url: string;
  image_url: string | null;
  date_published: string | null;
  /** Escaped HTML with the matched words in <mark>. */
  snippet: string;
}

/** What a search answered, as the page prints it and as the API adds to its page. */
export interface SiteSearchAnswer {
  count: number;
  counts: Partial<Record<SiteSearchCategory, number>>;
  count_estimated: boolean;
  match: 'fulltext' | 'similar' | 'none';
  corrected: string | null;
  results: SiteSearchResultDTO[];
}

/** The state /search prints for the search island. */
export interface SearchIslandState {
  params: SiteSearchParams;
  /** Null before anything was searched (an empty query). */
  result: SiteSearchAnswer | null;
  /** The categories switched on, in order (the category tabs). */
  categories: SiteSearchCategory[];
}
