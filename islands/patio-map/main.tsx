import { initialStateFor, siteConfig } from '../common/initial-state';
import { fetchStations, mountMapIsland } from '../common/maps/mount-map';
import { listingPoints, MAP } from '../common/maps/geo';

// The Patio Guide's map: the places with a patio listed on the page, clustered, each with the
// listing popup (spec 2 §2 "Maps", max width 300 as on maps other than the listing page's),
// and the subway stations. State: server/apps/patios/pages.ts.

mountMapIsland('patio-map', async () => {
  const state = initialStateFor('patio-map');
  const config = siteConfig();
  const points = listingPoints(state?.listings ?? [], { siteUrl: config.url, cityName: config.city.name });
  if (!points.length) return null;
  return {
    center: { latitude: config.city.latitude, longitude: config.city.longitude },
    zoom: MAP.defaultZoom,
    fit: 'points',
    cluster: true,
    points,
    stations: await fetchStations(),
    popupMaxWidth: MAP.popupWidth,
    label: `Map of patios in ${config.city.name}`,
  };
});
