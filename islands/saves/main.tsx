import { Provider } from 'react-redux';
import { mountIsland } from '../common/mount';
import { initialStateFor } from '../common/initial-state';
import { requestLogin } from '../common/auth-events';
import { maybeSignedIn } from '../common/auth-status';
import { calendarDialogRequested, eventIdParam } from './actions';
import { savesApi } from './api';
import { SaveControl } from './components/SaveControl';
import { profileFromInitialState } from './slices/profile';
import { createSavesStore, type SavesStore } from './store';
import type { ControlType } from './types';

// The saves island: every placeholder templates/partials/save-controls.njk printed (data-save,
// data-object-id) becomes a live control; all share one store, so the page reads the saved-id
// maps once. The placeholders are the same for everybody: a login link without JavaScript,
// replaced here by the control, which learns the member from the auth check (/profiles/hi/).
let store: SavesStore | null = null;

const CONTROL_TYPES: ControlType[] = ['listing', 'listing-compact', 'article', 'video', 'event'];

function renderControl(el: HTMLElement) {
  store ??= createSavesStore(
    { profile: profileFromInitialState(initialStateFor('saves'), maybeSignedIn()) },
    { api: savesApi, navigate: (url) => window.location.assign(url), requestLogin },
  );
  const type = el.dataset.save as ControlType;
  const objectId = Number(el.dataset.objectId);
  if (!CONTROL_TYPES.includes(type) || !Number.isInteger(objectId) || objectId <= 0) return null;
  el.hidden = false;
  el.classList.add('is-enhanced');
  return (
    <Provider store={store}>
      <SaveControl type={type} objectId={objectId} name={el.dataset.name} />
    </Provider>
  );
}

mountIsland('saves', renderControl);
// ?eventId=N opens the save-to-calendar question for that event (spec 2 §2); the parameter is
// dropped from the address so that a refresh does not ask again.
function askFromQuery() {
  const eventId = eventIdParam(window.location.search);
  if (!store || eventId === null) return;
  store.dispatch(calendarDialogRequested({ eventId }));
  const url = new URL(window.location.href);
  url.searchParams.delete('eventId');
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
}
// After the controls mounted (mountIsland waits for DOMContentLoaded the same way).
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', askFromQuery, { once: true });
else askFromQuery();
// Islands that render cards after load (listing-search) print new placeholders and ask for
// them to be mounted: mountIsland skips the ones already mounted.
document.addEventListener('saves:rescan', () => mountIsland('saves', renderControl));

