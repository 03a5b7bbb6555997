import { Provider } from 'react-redux';
import { HashRouter, Navigate, NavLink, Route, Routes, useLocation, useNavigationType } from 'react-router-dom';
import { lazy, Suspense, useEffect, useState, type ReactElement } from 'react';
import { TIMINGS_MS, type FeatureFlag } from '../../shared/constants';
import { DashboardSettingsContext, RouteArrivalContext, useDashboardSettings, type DashboardSettings } from './context';
import { useDashboardSelector } from './hooks';
import { selectPendingRequests, type DashboardRootState, type DashboardStore } from './store';
import { LIST_SLICES, type ListName } from './slices/lists';
import { pageArrival, pushPath, rememberOrdering, rememberScroll, restoresPlace, routeArrival, savedScroll, startPath, type Arrival } from './navigation';
import { Home } from './components/Home';
import { OfflineNoticeSlot } from '../offline/dashboard';
import { Newsletter } from './components/Newsletter';

// The saved lists are one chunk, fetched when the browser is idle after the dashboard mounts
// (preloadLists), so the first load stays within the JS budget and opening a list waits on
// nothing; the offline worker keeps the chunk with the other build files.
const loadLists = () => import('./components/Lists');
const lazyList = (name: 'Favourites' | 'Todos' | 'SavedArticles' | 'SavedVideos' | 'SavedEvents' | 'RatedPlaces' | 'Photos') =>
  lazy(() => loadLists().then((m) => ({ default: m[name] })));
const [Favourites, Todos, SavedArticles, SavedVideos, SavedEvents, RatedPlaces, Photos] = (
  ['Favourites', 'Todos', 'SavedArticles', 'SavedVideos', 'SavedEvents', 'RatedPlaces', 'Photos'] as const
).map(lazyList);
export function preloadLists(): void {
  const idle = (window as { requestIdleCallback?: (cb: () => void) => void }).requestIdleCallback ?? ((cb: () => void) => setTimeout(cb, 1));
  idle(() => void loadLists());
}

// Your data is a page few open, so its panel loads when opened, outside the dashboard's budget.
const YourData = lazy(() => import('./components/YourData').then((m) => ({ default: m.YourData })));
// Only organisers add calendar feeds: loaded when opened too.
const CalendarFeeds = lazy(() => import('./components/CalendarFeeds').then((m) => ({ default: m.CalendarFeeds })));

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
  { path: '/favourites/', label: 'Favourites', requires: 'listings', element: <Suspense fallback={null}><Favourites /></Suspense> },
  { path: '/todos/', label: 'To-Do List', requires: 'listings', element: <Suspense fallback={null}><Todos /></Suspense> },
  { path: '/articles/', label: 'Saved Articles', requires: null, element: <Suspense fallback={null}><SavedArticles /></Suspense> },
  { path: '/videos/', label: 'Saved Videos', requires: 'videos', element: <Suspense fallback={null}><SavedVideos /></Suspense> },
  { path: '/events/', label: 'Events', requires: 'events', element: <Suspense fallback={null}><SavedEvents /></Suspense> },
  { path: '/ratings/', label: 'Rated Places', requires: 'listings', element: <Suspense fallback={null}><RatedPlaces /></Suspense> },
  { path: '/photos/', label: 'Photos', requires: 'listings', element: <Suspense fallback={null}><Photos /></Suspense> },
  { path: '/calendar-feeds/', label: 'My calendar feeds', requires: 'events', element: <Suspense fallback={null}><CalendarFeeds /></Suspense> },
  { path: '/your-data/', label: 'Your Data', requires: null, element: <Suspense fallback={null}><YourData /></Suspense> },
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

const visibleRoutes = (flags: DashboardSettings['flags']) => DASHBOARD_ROUTES.filter((r) => !r.requires || flags[r.requires]);

/**
 * How long a restored path waits at most for its content to be tall enough to scroll back into:
 * its lists may take seconds on a slow connection. The member scrolling, clicking or typing
 * meanwhile ends the wait at once (their move wins over ours).
 */
const SCROLL_RESTORE_MS = 15_000;
const USER_MOVES = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;

/**
 * The history cache's scroll side: each path keeps how far down the member scrolled, and comes
 * back there (once its lists have loaded and the page is tall enough) on a refresh, Back or
 * Forward, or a resumed visit; a new navigation (the menu, a link) starts at the top.
 */
function useScrollHistory(path: string, known: boolean, arrival: Arrival, entryKey: string | null) {
  useEffect(() => {
    if (!known) return;
    const target = restoresPlace(arrival) ? savedScroll(path, Date.now(), arrival === 'resume' ? null : entryKey) : 0;
    let frame = 0;
    let restoring = true;
    const started = performance.now();
    const stopRestoring = () => {
      restoring = false;
      cancelAnimationFrame(frame);
      for (const move of USER_MOVES) window.removeEventListener(move, stopRestoring);
    };
    const restore = () => {
      const room = document.documentElement.scrollHeight - window.innerHeight;
      if (room >= target || performance.now() - started > SCROLL_RESTORE_MS) {
        stopRestoring();
        const y = Math.min(target, Math.max(0, room));
        if (window.scrollY !== y) window.scrollTo(0, y);
        return;
      }
      frame = requestAnimationFrame(restore);
    };
    for (const move of USER_MOVES) window.addEventListener(move, stopRestoring, { passive: true });
    restore();
    let timer: ReturnType<typeof setTimeout> | null = null;
    let lastY: number | null = null;
    const record = () => {
      timer = null;
      if (lastY !== null) rememberScroll(path, lastY, Date.now(), entryKey);
    };
    const onScroll = () => {
      // While we wait for the content, scrolls are the browser clamping a short page, not the
      // member: recording one would replace the position we are about to restore. Likewise
      // once the address has moved on: the next route's shorter page is clamping this one's
      // scroll before React has run this cleanup.
      if (restoring || window.location.hash.slice(1).split('?')[0] !== path) return;
      lastY = window.scrollY;
      if (timer) clearTimeout(timer);
      timer = setTimeout(record, 150);
    };
    // A refresh or a closed tab within the 150 ms still keeps the last position.
    const flush = () => {
      if (!timer) return;
      clearTimeout(timer);
      record();
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', flush);
    return () => {
      stopRestoring();
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', flush);
      // The last position seen on this path, not window.scrollY: the next route may already
      // have shortened the page.
      flush();
    };
  }, [path, known, arrival, entryKey]);
}

/**
 * How the route on screen was reached: the page load's own arrival for the address the page
 * opened on; after that, popstate (the router's POP) is Back or Forward and anything else new.
 */
function useRouteArrivalOf(firstArrival: Arrival): Arrival {
  const location = useLocation();
  const navigationType = useNavigationType();
  const [firstLocation] = useState(location);
  return location === firstLocation ? firstArrival : routeArrival(navigationType);
}

export function DashboardRoutes({ firstArrival = 'new' }: { firstArrival?: Arrival }) {
  const { flags } = useDashboardSettings();
  const location = useLocation();
  const arrival = useRouteArrivalOf(firstArrival);
  const routes = visibleRoutes(flags);
  const known = routes.some((r) => r.path === location.pathname);
  useEffect(() => {
    if (known) pushPath(location.pathname);
  }, [location.pathname, known]);
  useEffect(preloadLists, []);
  // The router keeps each entry's key in history.state, so a refresh or Back finds it again;
  // an entry the router did not make (a typed hash, a new tab) has only 'default'.
  useScrollHistory(location.pathname, known, arrival, location.key === 'default' ? null : location.key);
  return (
    <div className="dash">
      <DashboardMenu routes={routes} />
      <div className="dash-content">
        <OfflineNoticeSlot />
        {/* The key restarts the 500 ms fade on every route change */}
        <div className="dash-fade" key={location.pathname} style={{ animationDuration: `${TIMINGS_MS.fade}ms` }}>
          <RouteArrivalContext.Provider value={arrival}>
            <Routes>
              {routes.map((r) => (
                <Route key={r.path} path={r.path} element={r.element} />
              ))}
              <Route path="*" element={<Navigate to="/home/" replace />} />
            </Routes>
          </RouteArrivalContext.Provider>
        </div>
        <LoadingOverlay />
      </div>
    </div>
  );
}

/** The history cache's sort side: a sort tab chosen on a list is remembered for next time. */
function useOrderingHistory(store: DashboardStore) {
  useEffect(() => {
    const names = Object.keys(LIST_SLICES) as ListName[];
    const state = () => store.getState() as DashboardRootState;
    let previous = Object.fromEntries(names.map((n) => [n, state()[n].params.ordering]));
    return store.subscribe(() => {
      const now = Object.fromEntries(names.map((n) => [n, state()[n].params.ordering]));
      for (const n of names) if (now[n] !== previous[n]) rememberOrdering(n, now[n]);
      previous = now;
    });
  }, [store]);
}

/**
 * Where this page load of the dashboard arrives. A visit with no route (a new tab) is sent to
 * the path the member was last on, written into the address before the router reads it, so
 * that no other route renders first. Not idempotent (it rewrites the address it reads), so it
 * runs once, outside React's render: a concurrent render that React restarts would run a
 * useState initializer again and read the rewritten address as a new navigation.
 */
export function arriveAtDashboard(flags: DashboardSettings['flags']): Arrival {
  // The dashboard restores each path's scroll itself (useScrollHistory); the browser's own
  // restoration on back and refresh would race it with a position for another route.
  if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
  const start = startPath(window.location.hash, visibleRoutes(flags).map((r) => r.path));
  if (start) window.history.replaceState(window.history.state, '', `#${start}`);
  return start ? 'resume' : pageArrival();
}

export function DashboardApp({ store, settings, arrival }: { store: DashboardStore; settings: DashboardSettings; arrival?: Arrival }) {
  const [firstArrival] = useState((): Arrival => arrival ?? arriveAtDashboard(settings.flags));
  useOrderingHistory(store);
  return (
    <Provider store={store}>
      <DashboardSettingsContext.Provider value={settings}>
        <HashRouter>
          <DashboardRoutes firstArrival={firstArrival} />
        </HashRouter>
      </DashboardSettingsContext.Provider>
    </Provider>
  );
}
