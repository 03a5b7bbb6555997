import { Provider } from 'react-redux';
import { HashRouter, Navigate, NavLink, Route, Routes, useLocation } from 'react-router-dom';
import type { ReactElement } from 'react';
import type { FeatureFlag } from '../../shared/constants';
import { DashboardSettingsContext, useDashboardSettings, type DashboardSettings } from './context';
import { useDashboardSelector } from './hooks';
import { selectPendingRequests, type DashboardStore } from './store';
import { Home } from './components/Home';
import { Newsletter } from './components/Newsletter';
import { Favourites, Photos, RatedPlaces, SavedArticles, SavedEvents, SavedVideos, Todos } from './components/Lists';

// The dashboard: hash routes with a menu (spec 1 §2 table), a fade between routes and a
// loading overlay while requests are out. '/', '/_=_' and anything unknown go to /home/.

export interface DashboardRoute {
  path: string;
  label: string;
  requires: FeatureFlag | null;
  element: ReactElement;
}

export const DASHBOARD_ROUTES: DashboardRoute[] = [
  { path: '/home/', label: 'Dashboard', requires: null, element: <Home /> },
  { path: '/newsletter/', label: 'Email Newsletters', requires: null, element: <Newsletter /> },
  { path: '/favourites/', label: 'Favourites', requires: 'listings', element: <Favourites /> },
  { path: '/todos/', label: 'To-Do List', requires: 'listings', element: <Todos /> },
  { path: '/articles/', label: 'Saved Articles', requires: null, element: <SavedArticles /> },
  { path: '/videos/', label: 'Saved Videos', requires: 'videos', element: <SavedVideos /> },
  { path: '/events/', label: 'Events', requires: 'events', element: <SavedEvents /> },
  { path: '/ratings/', label: 'Rated Places', requires: 'listings', element: <RatedPlaces /> },
  { path: '/photos/', label: 'Photos', requires: 'listings', element: <Photos /> },
];

export function DashboardMenu({ routes }: { routes: DashboardRoute[] }) {
  return (
    <nav className="dash-menu" aria-label="Dashboard">
      <ul>
        {routes.map((r) => (
          <li key={r.path}>
            <NavLink to={r.path} className={({ isActive }) => `dash-menu__link${isActive ? ' is-active' : ''}`}>
              {r.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function LoadingOverlay() {
  const pending = useDashboardSelector(selectPendingRequests);
  if (!pending) return null;
  return (
    <div className="dash-overlay" role="status" aria-live="polite">
      <span className="dash-spinner" aria-hidden="true" />
      <span className="visually-hidden">Loading…</span>
    </div>
  );
}

export function DashboardRoutes() {
  const { flags } = useDashboardSettings();
  const location = useLocation();
  const routes = DASHBOARD_ROUTES.filter((r) => !r.requires || flags[r.requires]);
  return (
    <div className="dash">
      <DashboardMenu routes={routes} />
      <div className="dash-content">
        {/* The key restarts the 500 ms fade on every route change */}
        <div className="dash-fade" key={location.pathname}>
          <Routes>
            {routes.map((r) => (
              <Route key={r.path} path={r.path} element={r.element} />
            ))}
            <Route path="*" element={<Navigate to="/home/" replace />} />
          </Routes>
        </div>
        <LoadingOverlay />
      </div>
    </div>
  );
}

export function DashboardApp({ store, settings }: { store: DashboardStore; settings: DashboardSettings }) {
  return (
    <Provider store={store}>
      <DashboardSettingsContext.Provider value={settings}>
        <HashRouter>
          <DashboardRoutes />
        </HashRouter>
      </DashboardSettingsContext.Provider>
    </Provider>
  );
}
