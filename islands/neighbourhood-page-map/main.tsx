import { initialStateFor } from '../common/initial-state';
import { fetchStations, mountMapIsland } from '../common/maps/mount-map';
import { MAP, namedPopupHtml } from '../common/maps/geo';

// One neighbourhood's page map: its own boundary (from the page state) and the subway stations.
// State: server/apps/neighbourhoods/pages.ts.

mountMapIsland('neighbourhood-page-map', async () => {
  const n = initialStateFor('neighbourhood-page-map')?.neighbourhood;
  if (!n?.boundaries) return null;
  return {
    center: n.centre,
    zoom: MAP.defaultZoom,
    fit: 'areas',
    areas: [{ id: n.id, name: n.name, geometry: n.boundaries, popupHtml: namedPopupHtml(n.name, null, 'Neighbourhood'), highlight: true }],
    stations: await fetchStations(),
    popupMaxWidth: MAP.popupWidth,
    label: `Map of ${n.name}`,
  };
});
