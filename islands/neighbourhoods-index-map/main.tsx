import type { Page } from '../../shared/dto';
import { api } from '../common/api';
import { initialStateFor, siteConfig } from '../common/initial-state';
import { fetchStations, mountMapIsland } from '../common/maps/mount-map';
import { MAP, namedPopupHtml, sitePath } from '../common/maps/geo';
import type { MapArea } from '../common/maps/types';

// The /neighbourhoods/ index map: every boundary (GET /api/v2/neighbourhoods/?boundaries=1 —
// the page prints only names, boundaries are tens of KB each) with a popup linking to the
// neighbourhood's page, and the subway stations. State: server/apps/neighbourhoods/pages.ts.

interface NeighbourhoodWithBoundaries {
  id: number;
  name: string;
  url: string;
  boundaries?: { type: string; coordinates: unknown };
}

mountMapIsland('neighbourhoods-index-map', async () => {
  const state = initialStateFor('neighbourhoods-index-map');
  const config = siteConfig();
  const urls = new Map((state?.neighbourhoods ?? []).map((n) => [n.id, n.url]));
  const [page, stations] = await Promise.all([api.get<Page<NeighbourhoodWithBoundaries>>('/api/v2/neighbourhoods/', { boundaries: 1, limit: 200 }), fetchStations()]);
  const areas: MapArea[] = page.results
    .filter((n) => n.boundaries)
    .map((n) => ({ id: n.id, name: n.name, geometry: n.boundaries!, popupHtml: namedPopupHtml(n.name, urls.get(n.id) ?? sitePath(n.url, config.url), 'View neighbourhood') }));
  if (!areas.length) return null;
  return {
    center: { latitude: config.city.latitude, longitude: config.city.longitude },
    zoom: MAP.defaultZoom,
    fit: 'areas',
    areas,
    stations,
    popupMaxWidth: MAP.popupWidth,
    label: `Map of ${config.city.name}'s neighbourhoods`,
  };
});
