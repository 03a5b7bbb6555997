import { initialStateFor } from '../common/initial-state';
import { fetchStations, mountMapIsland } from '../maps/mount-map';
import { MAP, namedPopupHtml } from '../maps/geo';

// A neighbourhood page's map: its boundary (from the page state) and the subway stations.
// State: server/apps/neighbourhoods/pages.ts.

mountMapIsland('neighbourhood-map', async () => {
  const n = initialStateFor('neighbourhood-map')?.neighbourhood;
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
