import { Provider } from 'react-redux';
import { mountIsland } from '../common/mount';
import { initialStateFor, siteConfig } from '../common/initial-state';
import type { SavesInitialState } from '../saves/types';
import { listingSearchApi } from './api';
import { App } from './components/App';
import { filters } from './slices/filters';
import { browserContext, createListingSearchStore } from './store';
import { pointFromSearch, suggestionFromSearch, type ListingSearchInitialState } from '../../shared/listing-hub';
import { suggestions } from './slices/suggestions';

// The listing search panel of the listing hubs. It starts from what the hub page printed
// (params, first page, filter options: #initial-state) and fetches only when the criteria
// change or the next page is needed. The page's plain GET form is the no-JavaScript fallback;
// it is replaced when the island mounts.

mountIsland('listing-search', () => {
  const initial = initialStateFor<ListingSearchInitialState>('listing-search');
  if (!initial) return null;
  const store = createListingSearchStore(initial, browserContext(listingSearchApi));
  // CASE: a reload after 'Nearby' or a chosen place: the hub page could not search by
  // position; the island does.
  const free = initial.params.fixedNeighbourhood === null;
  const place = free ? suggestionFromSearch(window.location.search) : null;
  const point = free && !place ? pointFromSearch(window.location.search) : null;
  if (place) {
    store.dispatch(suggestions.textSet({ text: place.name, place: true }));
    store.dispatch(filters.suggestionChosen(place));
  } else if (point) store.dispatch(filters.nearbyLocated(point));
  const config = siteConfig();
  const member = Boolean(initialStateFor<SavesInitialState>('saves')?.member);
  return (
    <Provider store={store}>
      <App
        options={initial.options}
        card={{ siteUrl: config.url, cityName: config.city.name, member, next: window.location.pathname + window.location.search }}
        centre={{ latitude: config.city.latitude, longitude: config.city.longitude }}
        path={window.location.pathname}
        geolocation={'geolocation' in navigator}
      />
    </Provider>
  );
});
