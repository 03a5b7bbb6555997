import type { Request, Response } from 'express';
import type { AppContext } from '../../context';
import { addIsland } from '../../views';
import type { PageView } from '../../http/pages/page-view';
import { parseSiteSearchParams } from './params';
import type { SearchService } from './service';
import { SEARCH_CATEGORIES } from './source-queries';
import { enabledCategories } from './api';
import { sizedImageUrl } from '../../../shared/format/image-url';
import { noResultsMessage, resultsHeading, SITE_SEARCH_CATEGORY_NAMES, SITE_SEARCH_TABS, siteSearchCategoryName, siteSearchUrl, type SearchIslandState, type SiteSearchParams as PageParams, type SiteSearchResultDTO } from '../../../shared/site-search';
import { Router } from 'express';
import { page } from '../../http/pages/page-view';
import { addSurrogateKeys, keepAtEdgeAtMost, SITE_SEARCH_EDGE_SECONDS, siteSearchKeys } from '../../http/surrogate-keys';

// /search: the first page of results rendered on the server (it works without JavaScript and
// is the search island's initial state), with the spec's sort tabs and messages (spec 2 §8).
// URLs and messages come from shared/site-search.ts, which the island uses too.

/**
 * A result as the island reads it: without the page's `object` (the whole listing, article or
 * event behind it, for the template's badges), which was most of the state the page printed.
 */
function islandResult(r: SiteSearchResultDTO): SiteSearchResultDTO {
  return { category: r.category, id: r.id, title: r.title, highlighted_title: r.highlighted_title, share_url: r.share_url, image_url: r.image_url, date_published: r.date_published, snippet: r.snippet };
}

export async function searchPage(ctx: AppContext, search: SearchService, req: Request, res: Response): Promise<PageView> {
  const params = parseSiteSearchParams(req.query);
  const q = params.q.trim();
  const all = params.categories.length === SEARCH_CATEGORIES.length;
  const categoriesParam = all ? '' : params.categories.join(',');
  const enabled = enabledCategories(ctx.config.flags);
  const categories = params.categories.filter((c) => enabled.has(c));
  const result = q && categories.length ? await search.searchSite(ctx.dbRead, { ...params, q, categories }, ctx.config.site.url, { now: ctx.now() }) : null;
  addSurrogateKeys(res, siteSearchKeys(result?.results ?? []));
  keepAtEdgeAtMost(res, SITE_SEARCH_EDGE_SECONDS);
  const pageParams: PageParams = { q, categories: categoriesParam || 'all', ordering: params.ordering, offset: params.offset };
  const href = (o: Partial<PageParams>) => siteSearchUrl({ ...pageParams, ...o });
  const count = result?.count ?? 0;
  const searched = Boolean(q);
  const islandState: SearchIslandState = {
    params: pageParams,
    result: searched
      ? {
          count,
          counts: result?.counts ?? {},
          count_estimated: result?.count_estimated ?? false,
          match: result?.match ?? 'none',
          corrected: result?.corrected ?? null,
          results: (result?.results ?? []).map(islandResult),
        }
      : null,
    categories: SEARCH_CATEGORIES.filter((c) => enabled.has(c)),
  };
  addIsland(res, 'search', islandState);
  return {
    template: 'search/index.njk',
    q,
    params,
    categoriesParam,
    categoryOptions: [{ value: '', name: 'Everything' }, ...SEARCH_CATEGORIES.filter((c) => enabled.has(c)).map((c) => ({ value: c, name: SITE_SEARCH_CATEGORY_NAMES[c] }))],
    searched,
    result,
    results: (result?.results ?? []).map((r) => ({ ...r, thumb: r.image_url ? sizedImageUrl(r.image_url, 'listingCard') : null })),
    count,
    heading: result ? resultsHeading(result, q) : '',
    tabs: SITE_SEARCH_TABS.map((t) => ({ label: t.label, url: href({ ordering: t.ordering, offset: 0 }), active: params.ordering === t.ordering })),
    previousUrl: params.offset > 0 ? href({ offset: Math.max(0, params.offset - params.limit) }) : null,
    nextUrl: params.offset + params.limit < count ? href({ offset: params.offset + params.limit }) : null,
    noResults: searched && count === 0 ? noResultsMessage(q, siteSearchCategoryName(categoriesParam)) : null,
    pageTitle: q ? `Search results for “${q}”` : 'Search',
    pageDescription: `Search articles, places, events, videos and contests on ${ctx.config.site.name}.`,
    canonicalUrl: `${ctx.config.site.url}/search`,
  };
}

export function searchPages(ctx: AppContext, search: SearchService): Router {
  const router = Router();

  // ## Site search: first results on the server, then the search island takes over
  router.get('/search', page('shared-for-guests', (req, res) => searchPage(ctx, search, req, res)));
  return router;
}
