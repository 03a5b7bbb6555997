import { mountIsland } from '../common/mount';
import { initialStateFor, siteConfig } from '../common/initial-state';
import { BestOfMap } from './BestOfMap';

// The Best of list's full-screen map (spec 2 §2: 'a full-screen best-of map with a Close Map
// button'). State: server/apps/articles/pages.ts bestOfMapState. maplibre loads only
// when the visitor opens the map (common/maps/loader.ts).
mountIsland('best-of-map', () => {
  const state = initialStateFor('best-of-map');
  if (!state?.listings.length) return null;
  const config = siteConfig();
  return <BestOfMap state={state} siteUrl={config.url} cityName={config.city.name} centre={{ latitude: config.city.latitude, longitude: config.city.longitude }} />;
});
