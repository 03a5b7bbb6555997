import { mountIsland } from '../common/mount';
import { initialStateFor, siteConfig } from '../common/initial-state';
import { maybeSignedIn } from '../common/auth-status';
import { accountsApi } from './api';
import { NavbarApp } from './App';
import { createNavbarStore } from './store';
import { authDialog } from './slices/authDialog';
import type { NavbarInitialState } from './types';

// The navbar island: replaces the server-rendered nav with the interactive one. The page is
// the same for everybody: with the signed-in cookie the visitor is 'unknown' until the saga's
// auth check names the member; without it, a guest from the start.
mountIsland('navbar', () => {
  // Every field may be missing from a page printed by an older server.
  const state: NavbarInitialState = initialStateFor('navbar') ?? {};
  const config = siteConfig();
  const signedIn = maybeSignedIn();
  const store = createNavbarStore(
    { session: { status: signedIn ? 'unknown' : 'anonymous', user: null, lastUpdates: {} } },
    {
      api: accountsApi,
      navigate: (url) => window.location.assign(url),
      reload: () => window.location.reload(),
      location: () => window.location,
      appVersion: state.appVersion ?? '0',
    },
  );
  // /?signupDialogActive=true opens sign-up (spec 2 §2 "Authentication dialogs").
  if (!signedIn && new URLSearchParams(window.location.search).get('signupDialogActive') === 'true') store.dispatch(authDialog.signupOpened());
  return (
    <NavbarApp
      store={store}
      social={state.social}
      site={{ name: config.name, cityName: config.city.name, flags: config.flags }}
      menus={state.menus}
      currentUrl={window.location.pathname + window.location.search}
    />
  );
});
