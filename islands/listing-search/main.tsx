import { startTransition } from 'react';
import { Provider } from 'react-redux';
import { mountIsland } from '../common/mount';
import { initialStateFor, siteConfig } from '../common/initial-state';
import { listingSearchApi } from './api';
import { App } from './components/App';
import { filters } from './slices/filters';
import { browserContext, createListingSearchStore } from './store';
import { pointFromSearch, suggestionFromSearch, type HubOptions, type ListingSearchInitialState } from '../../shared/listing-hub';
import { suggestions } from './slices/suggestions';

// The listing search panel of the listing hubs. It starts from what the hub page printed
// (params and the first page: #initial-state) and fetches only when the criteria change or
// the next page is needed. The filter options come from the URL the page names, which the
// browser keeps from one hub to the next; the island mounts once they are here. Until then,
// and if they cannot be had, the page's plain GET form and its cards work on their own (they
// are the no-JavaScript fallback, replaced when the island mounts).

function mount(initial: ListingSearchInitialState, options: HubOptions): void {
  mountIsland('listing-search', () => {
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
    return (
      <Provider store={store}>
        <App
          options={options}
          card={{ siteUrl: config.url, cityName: config.city.name, next: window.location.pathname + window.location.search }}
          centre={{ latitude: config.city.latitude, longitude: config.city.longitude }}
          path={window.location.pathname}
          geolocation={'geolocation' in navigator}
        />
      </Provider>
    );
  });
}

const initial = initialStateFor('listing-search');
if (initial) {
  listingSearchApi.options(initial.optionsUrl).then(
    // A transition, so React renders the panel (its hundreds of filter options and the cards)
    // in slices between which the page stays responsive, not as one long task; the server's
    // markup stays on screen until the panel replaces it whole.
    (options) => startTransition(() => mount(initial, options)),
    // The page stays as the server printed it: its form and links work without the island.
    () => undefined,
  );
}
