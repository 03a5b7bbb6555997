/// <reference types="jest" />
import '../../common/test-polyfills';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithStore } from '../../common/test-utils';
import { loadMapEngine as realLoadMapEngine } from '../../common/maps/loader';
import type { MapEngine, MapHandle } from '../../common/maps/types';
import { DashboardApp } from '../App';
import { createDashboardStore, selectPendingRequests, type DashboardRootState } from '../store';
import { initialProfileState } from '../slices/profile';
import { pushPath, rememberOrdering } from '../navigation';
import { bookmarkPage, counts, fakeApi, favourite, listing, page, pageLoadedBy, profile, todo } from '../testing';
import type { FeatureFlags } from '../../../shared/constants';
import type { CalendarStatusDTO } from '../../../shared/dto';

// Issue 13 on the dashboard: the favourites and to-do maps, Calendar Settings, the path stack
// and history cache, the count boxes' descriptions and the pending-request overlay.

const handle: jest.Mocked<MapHandle> = { setPoints: jest.fn(), bounds: jest.fn(), onMoveEnd: jest.fn(), whenStill: jest.fn(), resize: jest.fn(), destroy: jest.fn() };
const engine: MapEngine = { create: jest.fn().mockResolvedValue(handle) };
jest.mock('../../common/maps/loader', () => ({ loadMapEngine: jest.fn() }));
const loadMapEngine = realLoadMapEngine as jest.Mock;

const FLAGS: FeatureFlags = { listings: true, events: true, contests: true, videos: true, bestOf: true, photoChallenges: true, patioGuide: true, photoUpload: true, newsOnly: false };
const located = (id: number) => listing(id, { coordinates: { latitude: 43.65 + id / 1000, longitude: -79.38 } });

function renderDashboard(hash: string, api = fakeApi()) {
  window.history.replaceState(null, '', `/accounts/dashboard/${hash}`);
  const store = createDashboardStore({ profile: { ...initialProfileState, data: profile() }, counts: counts({ favourite_count: 2 }) }, { api, forgetCache: jest.fn() });
  const settings = { flags: FLAGS, calendarEnabled: true, iosAppUrl: null };
  return { api, ...renderWithStore(<DashboardApp store={store} settings={settings} />, store) };
}

const status = (google: Partial<CalendarStatusDTO['google']>, feed: CalendarStatusDTO['feed'] = { url: null, webcal_url: null }): CalendarStatusDTO => ({
  google: { configured: true, connected: false, connect_url: '/profiles/oauth-connect/?next=%2Faccounts%2Fdashboard%2F%23%2Fevents%2F', setup_hint: null, ...google },
  feed,
});

beforeEach(() => {
  localStorage.clear();
  loadMapEngine.mockReset();
  (engine.create as jest.Mock).mockClear();
});

describe("'Map all Favourites' and the to-do map", () => {
  test('the map reads every favourite, is headed "{n} Favourites", and draws one marker per located place with listing popups', async () => {
    loadMapEngine.mockResolvedValue(engine);
    const all = [1, 2, 3].map((i) => ({ ...favourite(i), listing: located(100 + i) }));
    const favourites = jest.fn(async (q: { limit: number }) => (q.limit === 100 ? page(all, 3) : page(all.slice(0, 2), 3)));
    renderDashboard('#/favourites/', fakeApi({ favourites }));
    fireEvent.click(await screen.findByRole('button', { name: 'Map all Favourites' }));
    expect(await screen.findByRole('heading', { name: '3 Favourites' })).toBeTruthy();
    expect(favourites).toHaveBeenLastCalledWith({ offset: 0, limit: 100, ordering: '-date_created' });
    await waitFor(() => expect(engine.create).toHaveBeenCalled());
    const opts = (engine.create as jest.Mock).mock.calls[0][1];
    expect(opts.points).toHaveLength(3);
    expect(opts.popupMaxWidth).toBe(300);
    expect(opts.points[0].popupHtml).toContain('View Review');
    expect(screen.getByRole('button', { name: 'Hide the map' }).getAttribute('aria-expanded')).toBe('true');
  });

  test('one favourite says "1 Favourite"; without WebGL the places are listed as links', async () => {
    loadMapEngine.mockRejectedValue(new Error('no webgl'));
    const one = [{ ...favourite(1), listing: located(101) }];
    renderDashboard('#/favourites/', fakeApi({ favourites: jest.fn(async () => page(one)) }));
    fireEvent.click(await screen.findByRole('button', { name: 'Map all Favourites' }));
    expect(await screen.findByRole('heading', { name: '1 Favourite' })).toBeTruthy();
    const fallback = await screen.findByRole('region', { name: 'Map of your favourites' });
    expect(within(fallback).getByRole('link', { name: 'Place 101' })).toBeTruthy();
  });

  test('open to-dos are drawn on a map above their grid', async () => {
    loadMapEngine.mockResolvedValue(engine);
    const open = [todo(1), todo(2)].map((t, i) => ({ ...t, listing: located(300 + i) }));
    renderDashboard('#/todos/', fakeApi({ todos: jest.fn(async (q: { completed: number }) => (q.completed ? page([]) : page(open))) }));
    await screen.findByText('2 To-Dos');
    await waitFor(() => expect(engine.create).toHaveBeenCalled());
    expect((engine.create as jest.Mock).mock.calls[0][1]).toMatchObject({ label: 'Map of your to-dos', points: [expect.objectContaining({ id: 300 }), expect.objectContaining({ id: 301 })] });
  });
});

describe('Calendar Settings', () => {
  test('configured, not connected: the Yes/No choice, the Connect link and a button for the ICS link', async () => {
    const api = fakeApi({ calendarStatus: jest.fn(async () => status({})) });
    renderDashboard('#/events/', api);
    const panel = await screen.findByRole('region', { name: 'Calendar Settings' });
    expect(await within(panel).findByText('Automatically add saved events to your Google Calendar')).toBeTruthy();
    expect(within(panel).getByRole('link', { name: 'Connect Google Calendar' }).getAttribute('href')).toBe('/profiles/oauth-connect/?next=%2Faccounts%2Fdashboard%2F%23%2Fevents%2F');
    await act(async () => {
      fireEvent.click(within(panel).getByRole('button', { name: 'Get my calendar link' }));
    });
    expect(api.makeIcsFeed).toHaveBeenCalled();
    expect((within(panel).getByLabelText('Your link') as HTMLInputElement).value).toBe('http://example.test/calendar/abc.ics');
    expect(within(panel).getByRole('link', { name: 'Open in your calendar app' }).getAttribute('href')).toBe('webcal://example.test/calendar/abc.ics');
  });

  test('connected: says so, no Connect link', async () => {
    renderDashboard('#/events/', fakeApi({ calendarStatus: jest.fn(async () => status({ connected: true }, { url: 'http://x.test/calendar/t.ics', webcal_url: 'webcal://x.test/calendar/t.ics' })) }));
    expect(await screen.findByText(/Connected to Google Calendar\./)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Connect Google Calendar' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Make a new link' })).toBeTruthy();
  });

  test('Google not configured: the Yes/No choice still shows and is saved to the profile, with a note and the setup hint', async () => {
    const api = fakeApi({ calendarStatus: jest.fn(async () => status({ configured: false, connect_url: null, setup_hint: 'Set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET.' })) });
    renderDashboard('#/events/', api);
    const note = await screen.findByText('Google Calendar is not set up on this site yet. Your choice is kept for when it is.');
    const choice = screen.getByRole('group', { name: 'Automatically add saved events to your Google Calendar' });
    expect(choice.getAttribute('aria-describedby')).toBe(note.id);
    expect(screen.getByText('Set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET.')).toBeTruthy();
    expect(screen.queryByText(/Connect Google Calendar|Connected to Google Calendar/)).toBeNull();
    await act(async () => {
      fireEvent.click(within(choice).getByLabelText('No'));
    });
    expect(api.putCalendarChoice).toHaveBeenCalledWith({ id: 7, email: 'anne@example.com', sync_bookmarked_events_to_google_calendar: false });
    expect((within(choice).getByLabelText('No') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('button', { name: 'Get my calendar link' })).toBeTruthy();
  });
});

test('Calendar Settings: the answer shows while it is saved; a refused save falls back to the stored choice', async () => {
  let refuse: (e: Error) => void = () => undefined;
  const api = fakeApi({ calendarStatus: jest.fn(async () => status({ configured: false, connect_url: null })), putCalendarChoice: jest.fn(() => new Promise<never>((_r, reject) => (refuse = reject))) });
  renderDashboard('#/events/', api);
  const choice = await screen.findByRole('group', { name: 'Automatically add saved events to your Google Calendar' });
  await act(async () => {
    fireEvent.click(within(choice).getByLabelText('Yes'));
  });
  expect((within(choice).getByLabelText('Yes') as HTMLInputElement).checked).toBe(true);
  await act(async () => refuse(new Error('offline')));
  expect((within(choice).getByLabelText('Yes') as HTMLInputElement).checked).toBe(false);
  expect((within(choice).getByLabelText('No') as HTMLInputElement).checked).toBe(false);
});

describe('navigation, count boxes and the loading overlay', () => {
  test('a new tab (no route) opens the path the member was last on; visiting records it', async () => {
    pushPath('/articles/');
    renderDashboard('', fakeApi({ articleBookmarks: jest.fn(async () => bookmarkPage([])) }));
    expect(await screen.findByText('Find something interesting? Save it for later.')).toBeTruthy();
    expect(window.location.hash).toBe('#/articles/');
    fireEvent.click(within(screen.getByRole('navigation', { name: 'Dashboard' })).getByRole('link', { name: 'Photos' }));
    await screen.findByRole('heading', { name: 'Photos' });
    expect(JSON.parse(localStorage.getItem('dashboard.pathStack')!)).toEqual(['/articles/', '/photos/']);
  });

  test('a refresh or a Back into the page brings a list back sorted as the member left it; a new navigation does not', async () => {
    rememberOrdering('articleBookmarks', '-article_date');
    for (const [type, ordering] of [['reload', '-article_date'], ['back_forward', '-article_date'], ['navigate', '-date_created']] as const) {
      const unload = pageLoadedBy(type);
      try {
        const api = fakeApi();
        const { unmount } = renderDashboard('#/articles/', api);
        await screen.findByText('Find something interesting? Save it for later.');
        expect(api.articleBookmarks).toHaveBeenCalledWith({ offset: 0, limit: 15, ordering });
        unmount();
      } finally {
        unload();
      }
    }
  });

  test('each count box shows its count, its label and a description', async () => {
    renderDashboard('#/home/');
    const box = (await screen.findByText('Favourites', { selector: '.dash-count__label' })).closest('a')!;
    expect(box.textContent).toBe('2FavouritesThe places you love, in a list and on a map.');
    expect(screen.getByText('No To-Dos').closest('a')!.textContent).toBe("No To-DosPlaces you've been meaning to check out.");
  });

  test('the overlay shows while any request is pending (lists, calendar, the map) and the route content fades in for 500 ms', async () => {
    let release: (v: unknown) => void = () => undefined;
    const api = fakeApi({ calendarStatus: jest.fn(() => new Promise((r) => (release = r))) });
    const { store, container } = renderDashboard('#/events/', api);
    expect(await screen.findByRole('status')).toBeTruthy();
    expect(selectPendingRequests(store.getState() as DashboardRootState)).toBeGreaterThan(0);
    await act(async () => release(status({})));
    await act(async () => undefined);
    expect(selectPendingRequests(store.getState() as DashboardRootState)).toBe(0);
    expect(container.querySelector('.dash-overlay')).toBeNull();
    expect((container.querySelector('.dash-fade') as HTMLElement).style.animationDuration).toBe('500ms');
  });
});
