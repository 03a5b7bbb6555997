import type { Request, Response } from 'express';
import type { AppContext } from '../../context';
import { addIsland } from '../../views';
import type { PageView } from '../../http/pages/page-view';
import { pathWithQuery } from '../../http/pages/page-param';
import { parseSiteSearchParams, type SearchOrdering } from './params';
import { searchSite } from './service';
import { SEARCH_CATEGORIES } from './sources';

// /search: the first page of results rendered on the server (it works without JavaScript and
// is the search island's initial state), with the spec's sort tabs and messages (spec 2 §8).

const CATEGORY_NAMES: Record<string, string> = { articles: 'Articles', listings: 'Places', events: 'Events', videos: 'Videos', contests: 'Contests' };

export function noResultsMessage(q: string, categoryName: string | null): string {
  return `Sorry there are no results for “${q}”${categoryName ? ` in ${categoryName}.` : ' anywhere on the site.'}`;
}

export async function searchPage(ctx: AppContext, req: Request, res: Response): Promise<PageView> {
  const params = parseSiteSearchParams(req.query);
  const q = params.q.trim();
  const all = params.categories.length === SEARCH_CATEGORIES.length;
  const categoriesParam = all ? '' : params.categories.join(',');
  const result = q ? await searchSite(ctx.db, { ...params, q }, ctx.config.site.url, { now: ctx.now() }) : null;
  const href = (o: { ordering?: SearchOrdering; offset?: number }) =>
    pathWithQuery('/search', {
      q,
      categories: categoriesParam,
      ordering: (o.ordering ?? params.ordering) === 'relevancy' ? '' : (o.ordering ?? params.ordering),
      offset: o.offset ? o.offset : '',
    });
  const count = result?.count ?? 0;
  const categoryName = all ? null : params.categories.map((c) => CATEGORY_NAMES[c] ?? c).join(', ');
  const islandState = {
    params: { q, categories: categoriesParam || 'all', ordering: params.ordering, offset: params.offset, limit: params.limit },
    count: result ? count : -1,
    counts: result?.counts ?? null,
    results: result?.results ?? [],
    next: null,
    previous: null,
  };
  addIsland(res, 'search', islandState);
  return {
    template: 'search/index.njk',
    q,
    params,
    categoriesParam,
    categoryOptions: [{ value: '', name: 'Everything' }, ...SEARCH_CATEGORIES.map((c) => ({ value: c, name: CATEGORY_NAMES[c] ?? c }))],
    result,
    count,
    tabs: [
      { label: 'RELEVANCY', url: href({ ordering: 'relevancy' }), active: params.ordering === 'relevancy' },
      { label: 'DATE', url: href({ ordering: '-date_published' }), active: params.ordering === '-date_published' },
    ],
    previousUrl: params.offset > 0 ? href({ offset: Math.max(0, params.offset - params.limit) }) : null,
    nextUrl: params.offset + params.limit < count ? href({ offset: params.offset + params.limit }) : null,
    noResults: result && count === 0 ? noResultsMessage(q, categoryName) : null,
    pageTitle: q ? `Search results for “${q}”` : 'Search',
    pageDescription: `Search articles, places, events, videos and contests on ${ctx.config.site.name}.`,
    canonicalUrl: `${ctx.config.site.url}/search`,
  };
}
