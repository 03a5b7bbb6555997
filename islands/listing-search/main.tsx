import { Provider } from 'react-redux';
import { mountIsland } from '../common/mount';
import { initialStateFor, siteConfig } from '../common/initial-state';
import { listingSearchApi } from './api';
import { App } from './components/App';
import { filters } from './slices/filters';
import { results } from './slices/results';
import { browserContext, createListingSearchStore } from './store';
import { pointFromSearch, suggestionFromSearch, type HubOptions, type ListingSearchInitialState } from '../../shared/listing-hub';
import { suggestions } from './slices/suggestions';

// The listing search panel of the listing hubs. It starts from what the hub page printed
// (params and the first page: #initial-state) and fetches only when the criteria change or
// the next page is needed. The filter options come from the URL the page names, which the
// browser keeps from one hub to the next; the island mounts once they are here. Until then,
// and if they cannot be had, the page's plain GET form and its cards work on their own (they
// are the no-JavaScript fallback: the island replaces the form, and keeps the printed cards
// as they are, moved into its own list, so it never renders them a second time).

function mount(initial: ListingSearchInitialState, options: HubOptions): void {
  mountIsland('listing-search', (el) => {
    // Taken before React empties the placeholder; the state names the same cards by id.
    const printedCards = Array.from(el.querySelectorAll<HTMLElement>('.hub-results .place-grid > .place-card'));
    const found = printedCards.length === initial.results.ids.length;
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
    // CASE: the page's cards are not where the island looks: it renders them from data.
    if (!found) store.dispatch(results.printedWanted());
    const config = siteConfig();
    return (
      <Provider store={store}>
        <App
          options={options}
          card={{ siteUrl: config.url, cityName: config.city.name, next: window.location.pathname + window.location.search }}
          centre={{ latitude: config.city.latitude, longitude: config.city.longitude }}
          path={window.location.pathname}
          geolocation={'geolocation' in navigator}
          printedCards={found ? printedCards : []}
        />
      </Provider>
    );
  });
}

const initial = initialStateFor('listing-search');
if (initial) {
  listingSearchApi.options(initial.optionsUrl).then(
    // mountIsland renders it as a transition in a task of its own: React renders the panel (its
    // hundreds of filter options) in slices between which the page stays responsive; the
    // server's markup stays on screen until the panel replaces its form.
    (options) => mount(initial, options),
    // The page stays as the server printed it: its form and links work without the island.
    () => undefined,
  );
}
