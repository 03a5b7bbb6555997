import { Provider } from 'react-redux';
import { mountIsland } from '../common/mount';
import { initialStateFor, siteConfig } from '../common/initial-state';
import { isDay } from '../../shared/events-hub';
import { eventsHubApi } from './api';
import { EventsHub } from './components/EventsHub';
import { hub } from './slices/hub';
import { createEventsHubStore } from './store';

// The events hub (/events/): picks a day without a reload, shows the day's featured events
// and loads more in place. It starts from what the page printed; the page's links, date form
// and pagination are the no-JavaScript fallback, replaced on mount. Back and forward move
// between the days chosen.
//
// mountIsland mounts it as a transition, in a task of its own: React renders the hub (its 24
// cards) in slices between which the page stays responsive, not as one long task at load.
mountIsland('events-hub', () => {
  const initial = initialStateFor('events-hub');
  if (!initial) return null;
  const store = createEventsHubStore(initial, { api: eventsHubApi, pushUrl: (url) => window.history.pushState({ eventsHub: true }, '', url) });
  window.addEventListener('popstate', () => {
    const date = new URLSearchParams(window.location.search).get('date');
    const day = date && isDay(date) ? date : null;
    if (day !== store.getState().hub.date) store.dispatch(hub.dateChosen(day, false));
  });
  const config = siteConfig();
  return (
    <Provider store={store}>
      <EventsHub cityName={config.city.name} timeZone={config.timeZone} />
    </Provider>
  );
});
