/// <reference types="jest" />
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithStore } from '../common/test-utils';
import type { EventDTO, Page } from '../../shared/dto';
import type { EventsHubInitialState, HubEvent } from '../../shared/events-hub';
import { dayLabel, shiftDay } from '../../shared/events-hub';
import { EVENTS_HUB } from '../../shared/constants';
import type { EventsHubApi } from './api';
import { EventsHub } from './components/EventsHub';
import { hub, hubSlice, initialHubState, nextOffset, splitFeatured } from './slices/hub';
import { createEventsHubStore } from './store';
import { eventWhen } from './format';

// The hub's state rules (featured = the first 8, the list from offset 8, load-more by 15 with
// the medium bundle, stale answers dropped) and the reader's clicks on a jsdom page.

// An event as the API answers it (the medium bundle); the hub keeps the card's fields of it.
function ev(id: number, day = '2026-11-24'): EventDTO {
  return {
    id, event_id: id, slug: `event-${id}`, name: `Event ${id}`, title: `Event ${id}`, image_url: null,
    share_url: `https://site.test/events/event-${id}-${id}/`, start_date_time: `${day}T23:00:00.000Z`, end_date_time: null, all_day: false,
    location: null, venue_name: `Venue ${id}`, address: '', website: '', listing: null, can_be_bookmarked: true, schedule_type: 'single_day', date_created: '2026-01-01T00:00:00Z',
  };
}
const range = (from: number, n: number, day?: string) => Array.from({ length: n }, (_, i) => ev(from + i, day));
const page = (results: HubEvent[], count: number): Page<HubEvent> => ({ count, next: null, previous: null, results });

const initial: EventsHubInitialState = { date: null, today: '2026-11-24', offset: 0, count: 40, results: range(1, 24), canAdd: true };

function setup(state: EventsHubInitialState = initial, events: EventsHubApi['events'] = jest.fn()) {
  const api = { events: jest.fn(events) };
  const pushUrl = jest.fn();
  const store = createEventsHubStore(state, { api, pushUrl });
  return { store, api, pushUrl };
}

describe('events hub state', () => {
  const reduce = hubSlice.reducer;

  test('the first 8 events are featured and the list goes on from offset 8', () => {
    const s = initialHubState(initial);
    const { featured, rest } = splitFeatured(s);
    expect(featured.map((e) => e.id)).toEqual(range(1, 8).map((e) => e.id));
    expect(rest[0].id).toBe(9);
    expect(EVENTS_HUB.listInitialOffset).toBe(EVENTS_HUB.featuredCount);
    expect(nextOffset(s)).toBe(24);
  });

  test('a later page (?page=2) has no featured grid and loads on from where it starts', () => {
    const s = initialHubState({ ...initial, offset: 24, results: range(25, 16) });
    expect(splitFeatured(s).featured).toEqual([]);
    expect(nextOffset(s)).toBeNull();
  });

  test('an answer for a day no longer chosen, or for an offset already past, is dropped', () => {
    let s = reduce(initialHubState(initial), hub.dateChosen('2026-11-25'));
    s = reduce(s, hub.dateChosen('2026-11-26'));
    const stale = reduce(s, hub.dayLoaded({ date: '2026-11-25', page: page(range(100, 3), 3) }));
    expect(stale.items.map((e) => e.id)).toEqual(s.items.map((e) => e.id));
    expect(stale.status).toBe('loading');
    const loaded = reduce(s, hub.dayLoaded({ date: '2026-11-26', page: page(range(200, 23), 30) }));
    expect([loaded.status, loaded.count, loaded.items.length]).toEqual(['idle', 30, 23]);
    const more = reduce(reduce(loaded, hub.moreRequested()), hub.moreLoaded({ date: '2026-11-26', offset: 10, page: page(range(300, 5), 30) }));
    expect(more.items.length).toBe(23);
  });

  test('load-more is refused while a day loads, and a failed load-more can be tried again', () => {
    const loading = reduce(initialHubState(initial), hub.dateChosen('2026-11-25'));
    expect(reduce(loading, hub.moreRequested()).status).toBe('loading');
    const failed = reduce(reduce(initialHubState(initial), hub.moreRequested()), hub.failed({ date: null, during: 'more' }));
    expect(failed.status).toBe('failedMore');
    expect(reduce(failed, hub.moreRequested()).status).toBe('loadingMore');
  });

  test('times are the city’s, in the server card’s words', () => {
    expect(eventWhen('2026-11-24T23:00:00.000Z', false, 'Canada/Eastern')).toBe('Tue, Nov 24 · 6:00 pm');
    expect(eventWhen('2026-11-24T05:00:00.000Z', true, 'Canada/Eastern')).toBe('Tue, Nov 24');
    expect(dayLabel('2026-11-24')).toBe('Tuesday, November 24, 2026');
    expect(shiftDay('2026-12-31', 1)).toBe('2027-01-01');
  });
});

describe('events hub sagas', () => {
  test('choosing a day asks for featured plus one page from offset 0 and records the day in the URL', async () => {
    const h = setup(initial, async () => page(range(50, 23, '2026-11-25'), 31));
    h.store.dispatch(hub.dateChosen('2026-11-25'));
    await waitFor(() => expect(h.store.getState().hub.status).toBe('idle'));
    expect(h.api.events).toHaveBeenCalledWith({ date: '2026-11-25', offset: 0, limit: EVENTS_HUB.featuredCount + EVENTS_HUB.loadMoreLimit });
    expect(h.pushUrl).toHaveBeenCalledWith('/events/?date=2026-11-25');
    expect(h.store.getState().hub.items[0].id).toBe(50);
  });

  test('going back (push false) does not add a history entry', async () => {
    const h = setup(initial, async () => page([], 0));
    h.store.dispatch(hub.dateChosen(null, false));
    await waitFor(() => expect(h.store.getState().hub.status).toBe('idle'));
    expect(h.pushUrl).not.toHaveBeenCalled();
  });

  test('load more asks for 15 from where the list ends', async () => {
    const h = setup(initial, async () => page(range(25, 15), 40));
    h.store.dispatch(hub.moreRequested());
    await waitFor(() => expect(h.store.getState().hub.items).toHaveLength(39));
    expect(h.api.events).toHaveBeenCalledWith({ date: null, offset: 24, limit: EVENTS_HUB.loadMoreLimit });
  });

  test('a failed day keeps the old list and says so', async () => {
    const h = setup(initial, async () => {
      throw new Error('offline');
    });
    h.store.dispatch(hub.dateChosen('2026-11-25'));
    await waitFor(() => expect(h.store.getState().hub.status).toBe('failedDay'));
    expect(h.store.getState().hub.items).toHaveLength(24);
  });
});

describe('events hub component', () => {
  test('Tomorrow loads the next day in place; the heading, count and featured grid follow', async () => {
    const h = setup(initial, async (q) => page(range(60, 9, q.date ?? undefined), 9));
    renderWithStore(<EventsHub cityName="Toronto" timeZone="Canada/Eastern" />, h.store);
    expect(screen.getByRole('heading', { level: 1, name: 'Events in Toronto' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Featured' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Load more events' })).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Tomorrow' }));
    await screen.findByRole('heading', { level: 1, name: 'Events on Wednesday, November 25, 2026' });
    expect(screen.getByRole('status').textContent).toBe('9 events on this day.');
    expect(screen.getByRole('link', { name: 'Upcoming' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more events' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'More events' })).toBeTruthy();
  });

  test('the date form loads the day picked without leaving the page; an empty day offers the upcoming list', async () => {
    const h = setup(initial, async (q) => page(q.date ? [] : range(1, 3), q.date ? 0 : 3));
    renderWithStore(<EventsHub cityName="Toronto" timeZone="Canada/Eastern" />, h.store);
    fireEvent.change(screen.getByLabelText('Pick a date'), { target: { value: '2026-12-31' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show events' }));
    await screen.findByText(/No events on this day yet/);
    await act(async () => {
      fireEvent.click(screen.getByRole('link', { name: "See what's coming up" }));
    });
    await screen.findByRole('heading', { level: 1, name: 'Events in Toronto' });
    expect(h.pushUrl).toHaveBeenLastCalledWith('/events/');
  });
});
