import { initialStateFor, siteConfig } from '../common/initial-state';
import { fetchStations, mountMapIsland } from '../common/maps/mount-map';
import { listingPoints, MAP } from '../common/maps/geo';

// The listing page's map (spec 2 §2 "Maps"): the place, the places nearby and the subway
// stations, each with a popup (max width 454). State: server/apps/listings/pages.ts.

mountMapIsland('listing-map', async () => {
  const state = initialStateFor('listing-map');
  if (!state?.coordinates) return null;
  const config = siteConfig();
  const ctx = { siteUrl: config.url, cityName: config.city.name };
  const points = listingPoints([state.listing, ...state.nearby], ctx, state.listing.id);
  return {
    center: state.coordinates,
    zoom: MAP.singleZoom,
    fit: state.nearby.length ? 'points' : 'none',
    points,
    stations: await fetchStations(),
    popupMaxWidth: MAP.popupWidthListing,
    label: `Map of ${state.listing.name} and places nearby`,
  };
});
