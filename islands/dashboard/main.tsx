import { mountIsland } from '../common/mount';
import { initialStateFor, siteConfig } from '../common/initial-state';
import { dashboardApi } from './api';
import { withOffline } from '../offline/dashboard';
import { arriveAtDashboard, DashboardApp } from './App';
import { createDashboardStore } from './store';
import { countsLoaded } from './slices/counts';
import { initialProfileState, profileActions } from './slices/profile';

// The dashboard island: starts from the profile and counts the page printed; only when the
// page printed no counts does it ask for them.
mountIsland('dashboard', () => {
  const state = initialStateFor('dashboard') ?? {};
  // Its saved lists readable offline and ticks and removals queued there (islands/offline/).
  const api = withOffline(dashboardApi, state.profile?.id);
  const store = createDashboardStore({ profile: { ...initialProfileState, data: state.profile ?? null }, counts: state.counts ?? null }, { api });
  if (!state.counts) api.counts().then((c) => store.dispatch(countsLoaded(c)), () => undefined);
  if (!state.profile) api.profile().then((p) => store.dispatch(profileActions.profileLoaded(p)), () => undefined);
  const settings = { flags: siteConfig().flags, calendarEnabled: Boolean(state.calendarEnabled), iosAppUrl: state.iosAppUrl ?? null };
  // Read and rewrite the address once, here, not in a render React may restart.
  return <DashboardApp store={store} settings={settings} arrival={arriveAtDashboard(settings.flags)} />;
});
