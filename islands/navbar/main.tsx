import { mountIsland } from '../common/mount';
import { initialStateFor, siteConfig } from '../common/initial-state';
import { accountsApi } from './api';
import { NavbarApp } from './App';
import { createNavbarStore } from './store';
import { authDialog } from './slices/authDialog';
import type { NavbarInitialState } from './types';

// The navbar island: replaces the server-rendered nav with the interactive one. The member
// the page printed is the starting state; the saga's auth check confirms it.
mountIsland('navbar', () => {
  const state = initialStateFor<NavbarInitialState>('navbar') ?? {};
  const config = siteConfig();
  const user = state.user ?? null;
  const store = createNavbarStore(
    { session: { status: user ? 'authenticated' : 'anonymous', user, lastUpdates: {} } },
    {
      api: accountsApi,
      navigate: (url) => window.location.assign(url),
      reload: () => window.location.reload(),
      location: () => window.location,
      appVersion: state.appVersion ?? '0',
    },
  );
  // /?signupDialogActive=true opens sign-up (spec 2 §2 "Authentication dialogs").
  if (!user && new URLSearchParams(window.location.search).get('signupDialogActive') === 'true') store.dispatch(authDialog.signupOpened());
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
