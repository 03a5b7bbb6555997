import { Provider } from 'react-redux';
import { mountIsland } from '../common/mount';
import { initialStateFor } from '../common/initial-state';
import { siteSearchParamsFromQuery } from '../../shared/site-search';
import { searchApi } from './api';
import { App } from './components/App';
import { search } from './slices/search';
import { browserContext, createSearchStore } from './store';

// The search app (/search, spec 2 §2): starts from the results the page printed and searches
// in place when the query, category, ordering or page changes; each search is a history entry
// and back/forward restore it from the URL. No map code: results are a list.
//
// mountIsland mounts it as a transition, in a task of its own: React renders the app (tabs and
// a page of results) in slices between which the page stays responsive; the server's markup
// stays on screen until the app replaces it whole.
mountIsland('search', () => {
  const initial = initialStateFor('search');
  if (!initial) return null;
  // Spec 2 §8: a failed search is logged in debug mode only (import.meta stays out of the tested modules).
  const debug = (err: unknown) => {
    if (import.meta.env?.DEV) console.debug('search failed', err);
  };
  const store = createSearchStore(initial, browserContext(searchApi, debug));
  window.addEventListener('popstate', () => store.dispatch(search.restored(siteSearchParamsFromQuery(window.location.search))));
  return (
    <Provider store={store}>
      <App />
    </Provider>
  );
});
