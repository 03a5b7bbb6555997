import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { addIsland } from '../../views';
import { MemoryCache } from '../../cache/memory-cache';
import { changeTouches } from '../../cache/change-keys';
import { CITY_MAP_TTL_MS } from '../../cache/lifetimes';
import { urls } from '../../../shared/urls';
import { NotFoundError, ValidationError } from '../../http/errors';
import { page, PageRedirect, type PageAnswer } from '../../http/pages/page-view';
import { absolute } from '../../http/pages/canonical-url';
import { whenFlag } from '../../http/pages/feature-gate';
import { boundaryMap, cityMap, type CityMap } from '../../views/boundary-svg';
import { censusFacts, listingsByType, neighbourhoodBoundaries, neighbourhoodBySlug, neighbourhoodList } from './queries';
import { addSurrogateKeys, surrogateKeys } from '../../http/surrogate-keys';

// /neighbourhoods/ (a chooser that works as a plain GET form, and a map of every real
// boundary) and a page per neighbourhood with its boundary, census facts and places.

export function neighbourhoodsPages(ctx: AppContext): Router {
  const router = Router();
  const on = whenFlag(ctx, 'listings');
  const map = cachedCityMap(ctx);

  // ## Neighbourhoods
  router.get('/neighbourhoods/', on, page('shared-for-guests', (req, res) => landing(ctx, map, req, res)));
  router.get('/neighbourhoods/:slug/', on, page('shared-for-guests', (req, res) => neighbourhoodPage(ctx, req, res)));

  return router;
}

/** Boundaries change when the City redraws them, not per request: the city map is drawn once every CITY_MAP_TTL_MS. */
function cachedCityMap(ctx: AppContext): () => Promise<CityMap> {
  const cache = new MemoryCache<'city', CityMap>({ name: 'city-map', ttlMs: CITY_MAP_TTL_MS, maxEntries: 1 });
  // A change naming a neighbourhood (or naming nothing: a reconnect) draws it again; others keep it.
  ctx.changes?.subscribe((change) => {
    if (changeTouches(change, ['neighbourhood-'])) cache.clear();
  });
  return () => cache.load('city', () => neighbourhoodBoundaries(ctx.dbRead).then((rows) => cityMap(rows.map((r) => ({ ...r, href: urls.neighbourhood(r.slug) })))));
}

async function landing(ctx: AppContext, map: () => Promise<CityMap>, req: Request, res: Response): Promise<PageAnswer> {
  const chosen = req.query.neighbourhood;
  const neighbourhoods = await neighbourhoodList(ctx.dbRead);
  // CASE: the chooser submitted without JavaScript: go to the chosen neighbourhood's page.
  if (chosen !== undefined && chosen !== '') {
    if (typeof chosen !== 'string') throw new ValidationError({ neighbourhood: ['Choose a neighbourhood.'] });
    const found = neighbourhoods.find((n) => n.slug === chosen);
    if (!found) throw new NotFoundError();
    return new PageRedirect(urls.neighbourhood(found.slug), 302);
  }
  addIsland(res, 'neighbourhoods-index-map', { neighbourhoods: neighbourhoods.map((n) => ({ id: n.id, name: n.name, url: urls.neighbourhood(n.slug) })) });
  return {
    template: 'neighbourhoods/index.njk',
    neighbourhoods,
    map: await map(),
    pageTitle: `${ctx.config.city.name} neighbourhoods`,
    pageDescription: `All ${neighbourhoods.length} of ${ctx.config.city.name}'s neighbourhoods on a map, with census facts and the places in each.`,
    canonicalUrl: absolute(ctx, '/neighbourhoods/'),
  };
}

async function neighbourhoodPage(ctx: AppContext, req: Request, res: Response): Promise<PageAnswer> {
  const n = await neighbourhoodBySlug(ctx.dbRead, String(req.params.slug));
  if (!n) return null;
  const types = await listingsByType(ctx.dbRead, n.id, 6);
  // Its places: a place's change announces its neighbourhood's key (surrogate-keys.ts placeKeys).
  addSurrogateKeys(res, [surrogateKeys.neighbourhood(n.id)]);
  addIsland(res, 'neighbourhood-page-map', { neighbourhood: { id: n.id, name: n.name, boundaries: n.boundaries, centre: { latitude: n.label_latitude, longitude: n.label_longitude } } });
  return {
    template: 'neighbourhoods/detail.njk',
    n,
    facts: censusFacts(n.census),
    source: typeof n.census.source === 'string' ? n.census.source : null,
    boundary: boundaryMap(n.boundaries),
    types,
    pageTitle: `${n.name}, ${ctx.config.city.name}`,
    pageDescription: n.blurb || `${n.name}: census facts and places.`,
    canonicalUrl: absolute(ctx, urls.neighbourhood(n.slug)),
  };
}
