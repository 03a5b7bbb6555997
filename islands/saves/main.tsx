import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { whenDocumentParsed } from '../common/mount';
import { initialStateFor } from '../common/initial-state';
import { requestLogin } from '../common/auth-events';
import { maybeSignedIn } from '../common/auth-status';
import { calendarDialogRequested, eventIdParam } from './actions';
import { savesApi } from './api';
import { SaveControlPortals } from './components/SaveControlPortals';
import { placeholderSet } from './placeholders';
import { profileFromInitialState } from './slices/profile';
import { createSavesStore, type SavesStore } from './store';

// The saves island: every placeholder templates/partials/save-controls.njk printed (data-save,
// data-object-id) becomes a live control; all share one store, so the page reads the saved-id
// maps once, and one React root, whose portals put each control in its placeholder. The
// placeholders are the same for everybody: a login link without JavaScript, replaced here by
// the control, which learns the member from the auth check (/profiles/hi/).
let store: SavesStore | null = null;
const placeholders = placeholderSet(document);

function rescan() {
  const found = placeholders.rescan();
  // The portals follow the set; the store and the root are made for the first placeholder.
  if (store || !found.length) return;
  store = createSavesStore(
    { profile: profileFromInitialState(initialStateFor('saves'), maybeSignedIn()) },
    { api: savesApi, navigate: (url) => window.location.assign(url), requestLogin },
  );
  const ui = (
    <StrictMode>
      <Provider store={store}>
        <SaveControlPortals placeholders={placeholders} />
      </Provider>
    </StrictMode>
  );
  // The root's own element shows nothing (every control is a portal) and stays out of the page.
  const root = createRoot(document.createElement('div'));
  startTransition(() => root.render(ui));
}

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

whenDocumentParsed(() => {
  rescan();
  askFromQuery();
});
// Islands that render cards after load (listing-search) print new placeholders, or take
// cards away, and ask for the set to be read again.
document.addEventListener('saves:rescan', rescan);
