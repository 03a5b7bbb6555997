import { Provider } from 'react-redux';
import { initialStateFor } from '../common/initial-state';
import { mountIsland } from '../common/mount';
import { eventFormApi } from './api';
import { EventForm } from './components/EventForm';
import { eventFormFromInitialState } from './slice';
import { createEventFormStore } from './store';

// /events/add/: the island replaces the no-JavaScript form inside its placeholder with the
// same fields, enhanced (spec 1 §2 "Add-event form").
mountIsland('event-form', () => {
  const init = initialStateFor('event-form');
  if (!init) return null;
  const store = createEventFormStore(eventFormFromInitialState(init), { api: eventFormApi, navigate: (url) => window.location.assign(url) });
  return (
    <Provider store={store}>
      <EventForm init={init} />
    </Provider>
  );
});
