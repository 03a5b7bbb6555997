/// <reference types="jest" />
import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithStore } from '../common/test-utils';
import { App } from './components/App';
import { nextActive } from './components/PlaceSearch';
import { activeFilterCount, filters, filtersSlice, initialFilters } from './slices/filters';
import { initialSuggestions, suggestions, suggestionsMessage, suggestionsSlice, SUGGEST_DEBOUNCE_MS, SUGGESTION_KIND_LABELS } from './slices/suggestions';
import { results } from './slices/results';
import { placesOf, pointsOf } from './api';
import { criteriaPageUrl, suggestionFromSearch } from '../../shared/listing-hub';
import { appProps, fakeContext, hubState, page, range, settle, setup } from './testing';
import { TIMINGS_MS } from '../../shared/constants';

// The parts of the listing panel added for issue 12 item 7: the name-or-place field with its
// place type-ahead, next pages in the large bundle, the folded filters and the slider.

jest.mock('../common/maps/loader', () => ({ loadMapEngine: jest.fn().mockRejectedValue(new Error('no WebGL in jsdom')) }));

const LIBRETTO = { name: 'Pizzeria Libretto', lat: 43.649, long: -79.42 };
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('place suggestion and keywords: state rules', () => {
  const reduce = (...a: Parameters<typeof filtersSlice.reducer>[1][]) => a.reduce(filtersSlice.reducer, initialFilters(hubState().params));

  test('a chosen place searches around it by distance and resets neighbourhood, subway stop and keywords; clearing goes back to smart_review', () => {
    const s = reduce(filters.keywordsChosen('pizza'), filters.neighbourhoodChosen(7), filters.suggestionChosen(LIBRETTO));
    expect(s.criteria).toMatchObject({ selectedSuggestion: 'Pizzeria Libretto', lat: 43.649, long: -79.42, ordering: 'distance', neighborhoodId: null, subwayStopId: null, keywords: null });
    expect(filtersSlice.reducer(s, filters.suggestionChosen(null)).criteria).toMatchObject({ selectedSuggestion: null, lat: null, ordering: 'smart_review' });
  });

  test('typed keywords replace a chosen place (and its distance order); blank keywords are none', () => {
    const s = reduce(filters.suggestionChosen(LIBRETTO), filters.keywordsChosen('  lib  '));
    expect(s.criteria).toMatchObject({ keywords: 'lib', selectedSuggestion: null, lat: null, ordering: 'smart_review' });
    expect(filtersSlice.reducer(s, filters.keywordsChosen('   ')).criteria.keywords).toBeNull();
    expect(reduce(filters.keywordsChosen('x'.repeat(300))).criteria.keywords).toHaveLength(100);
  });

  test('a neighbourhood or subway stop after a place drops the place; the URL keeps the place and its point for a reload', () => {
    const placed = reduce(filters.suggestionChosen(LIBRETTO));
    const url = criteriaPageUrl(placed.criteria, { path: '/restaurants/', fixedNeighbourhood: null, page: 1 });
    expect(url).toBe('/restaurants/?selectedCategoryIndex=0&lat=43.649&long=-79.42&selectedSuggestion=Pizzeria+Libretto&ordering=distance');
    expect(suggestionFromSearch(url.slice(url.indexOf('?')))).toEqual(LIBRETTO);
    expect(suggestionFromSearch('?selectedSuggestion=Libretto')).toBeNull();
    expect(filtersSlice.reducer(placed, filters.subwayStopChosen(3)).criteria).toMatchObject({ selectedSuggestion: null, subwayStopId: 3, ordering: 'distance' });
    expect(criteriaPageUrl(reduce(filters.keywordsChosen('pizza & co')).criteria, { path: '/restaurants/', fixedNeighbourhood: null, page: 1 })).toBe('/restaurants/?selectedCategoryIndex=0&keywords=pizza+%26+co');
  });

  test('the type-ahead: short text suggests nothing, answers for older text are ignored, none found says No results found', () => {
    let s = suggestionsSlice.reducer(initialSuggestions(), suggestions.textTyped('p'));
    expect(s).toMatchObject({ status: 'idle', open: false });
    s = suggestionsSlice.reducer(s, suggestions.textTyped('pi'));
    expect(s).toMatchObject({ status: 'loading', open: true });
    expect(suggestionsMessage(s)).toBe('Searching…');
    s = suggestionsSlice.reducer(s, suggestions.textTyped('piz'));
    const stale = suggestionsSlice.reducer(s, suggestions.loaded({ text: 'pi', items: [{ kind: 'place', id: 1, ...LIBRETTO, address: '' }] }));
    expect(stale.items).toEqual([]);
    const none = suggestionsSlice.reducer(s, suggestions.loaded({ text: 'piz', items: [] }));
    expect(suggestionsMessage(none)).toBe('No results found');
    expect(suggestionsMessage(suggestionsSlice.reducer(none, suggestions.closed()))).toBe('No results found');
  });

  test('a place shown in the field is emptied when a neighbourhood, a subway stop or Nearby resets the suggestion; typed keywords stay', () => {
    const placed = suggestionsSlice.reducer(initialSuggestions(), suggestions.textSet({ text: 'Pizzeria Libretto', place: true }));
    expect(suggestionsSlice.reducer(placed, filters.subwayStopChosen(3))).toMatchObject({ text: '', place: null });
    expect(suggestionsSlice.reducer(placed, filters.nearbyLocated({ lat: 1, long: 2 })).text).toBe('');
    const typed = suggestionsSlice.reducer(initialSuggestions('pizza'), filters.neighbourhoodChosen(7));
    expect(typed.text).toBe('pizza');
  });

  test('places without a position are not offered; arrow keys wrap through the places and back to the field', () => {
    const places = placesOf({ count: 2, next: null, previous: null, results: [
      { id: 1, name: 'A', address: '1 King St', coordinates: { latitude: 43.6, longitude: -79.4 } },
      { id: 2, name: 'B', address: '2 King St', coordinates: null },
    ] });
    expect(places).toEqual([{ kind: 'place', id: 1, name: 'A', address: '1 King St', lat: 43.6, long: -79.4 }]);
    expect([nextActive(-1, 1, 3), nextActive(2, 1, 3), nextActive(-1, -1, 3), nextActive(0, -1, 3)]).toEqual([0, -1, 2, -1]);
  });

  test('the geocoder\'s addresses, stations and neighbourhoods are offered marked with their kind; its places are left to the listings search', () => {
    const points = pointsOf([
      { label: '401 Bay St', kind: 'address', coordinates: { latitude: 43.652, longitude: -79.382 } },
      { label: 'Osgoode station', kind: 'station', coordinates: { latitude: 43.6507, longitude: -79.3868 } },
      { label: 'Kensington-Chinatown', kind: 'neighbourhood', coordinates: { latitude: 43.653, longitude: -79.397 } },
      { label: 'Pizzeria Libretto', kind: 'place', coordinates: { latitude: 43.649, longitude: -79.42 } },
    ]);
    expect(points.map((p) => [SUGGESTION_KIND_LABELS[p.kind], p.name, p.lat, p.long])).toEqual([
      ['Address', '401 Bay St', 43.652, -79.382],
      ['Station', 'Osgoode station', 43.6507, -79.3868],
      ['Neighbourhood', 'Kensington-Chinatown', 43.653, -79.397],
    ]);
  });

  test('the folded filters count what narrows the search', () => {
    const s = reduce(filters.subCategoryChosen('pizza'), filters.featuresChosen(['patio', 'bbq']), filters.bestOfChosen(true), filters.filtersToggled());
    expect(activeFilterCount(s.criteria)).toBe(4);
    expect(s.filtersOpen).toBe(true);
    expect(initialFilters(hubState().params).filtersOpen).toBe(false);
  });
});

describe('place suggestion and keywords: sagas', () => {
  test('typing asks for places once typing pauses; a chosen place searches by position; keywords search names', async () => {
    const { store, ctx } = setup();
    store.dispatch(suggestions.textTyped('pi'));
    store.dispatch(suggestions.textTyped('piz'));
    await wait(SUGGEST_DEBOUNCE_MS + 50);
    expect(ctx.api.suggest.mock.calls).toEqual([['piz']]);
    expect(store.getState().suggestions.items.map((p) => p.name)).toEqual(['Pizzeria Libretto']);

    store.dispatch(filters.suggestionChosen(LIBRETTO));
    await settle();
    expect(ctx.api.search.mock.calls.at(-1)[0]).toMatchObject({ latitude: 43.649, longitude: -79.42, ordering: 'distance', keywords: null, offset: 0 });
    expect(ctx.replaceUrl).toHaveBeenLastCalledWith('/restaurants/?selectedCategoryIndex=0&lat=43.649&long=-79.42&selectedSuggestion=Pizzeria+Libretto&ordering=distance');

    store.dispatch(filters.keywordsChosen('lib'));
    await settle();
    expect(ctx.api.search.mock.calls.at(-1)[0]).toMatchObject({ keywords: 'lib', latitude: null, ordering: 'smart_review' });
  });

  test('a failed type-ahead says so and does not touch the results', async () => {
    const ctx = fakeContext();
    ctx.api.suggest.mockRejectedValue(new Error('offline'));
    const { store } = setup({}, ctx);
    store.dispatch(suggestions.textTyped('piz'));
    await wait(SUGGEST_DEBOUNCE_MS + 50);
    expect(suggestionsMessage(store.getState().suggestions)).toBe('Suggestions could not be loaded.');
    expect(store.getState().results.printed).toHaveLength(40);
  });

  test('the first page is the medium bundle, next pages the large one (spec 2 §9)', async () => {
    const ctx = fakeContext();
    ctx.api.search.mockResolvedValue(page(range(41, 40), 100));
    const { store } = setup({}, ctx);
    store.dispatch(results.nextPageRequested());
    await settle();
    expect(ctx.api.search.mock.calls[0][0]).toMatchObject({ offset: 40, bundle_type: 'large' });
    store.dispatch(filters.bestOfChosen(true));
    await settle();
    expect(ctx.api.search.mock.calls[1][0]).toMatchObject({ offset: 0, bundle_type: 'medium' });
  });
});

describe('listing panel components', () => {
  test('the pointer highlights a place; it stays highlighted 300 ms after the pointer leaves the list, unless it comes back', async () => {
    const s = setup();
    renderWithStore(<App {...appProps()} />, s.store);
    const box = screen.getByRole('combobox', { name: 'Name or place' });
    fireEvent.change(box, { target: { value: 'piz' } });
    await act(async () => {
      await wait(SUGGEST_DEBOUNCE_MS + 50);
    });
    const option = screen.getByRole('option', { name: /Pizzeria Libretto/ });
    jest.useFakeTimers();
    try {
      fireEvent.mouseEnter(option);
      expect(box.getAttribute('aria-activedescendant')).toBe(option.id);
      fireEvent.mouseLeave(screen.getByRole('listbox'));
      act(() => jest.advanceTimersByTime(TIMINGS_MS.activeResultDeactivation - 1));
      expect(option.getAttribute('aria-selected')).toBe('true');
      // Back in time: it stays.
      fireEvent.mouseEnter(option);
      act(() => jest.advanceTimersByTime(TIMINGS_MS.activeResultDeactivation * 2));
      expect(option.getAttribute('aria-selected')).toBe('true');
      fireEvent.mouseLeave(screen.getByRole('listbox'));
      act(() => jest.advanceTimersByTime(TIMINGS_MS.activeResultDeactivation));
      expect(option.getAttribute('aria-selected')).toBe('false');
      expect(box.getAttribute('aria-activedescendant')).toBeNull();
    } finally {
      jest.useRealTimers();
    }
  });

  test('the combobox lists places, says No results found, chooses with the keyboard and searches typed names', async () => {
    const s = setup();
    renderWithStore(<App {...appProps()} />, s.store);
    const box = screen.getByRole('combobox', { name: 'Name or place' });
    fireEvent.change(box, { target: { value: 'piz' } });
    await act(async () => {
      await wait(SUGGEST_DEBOUNCE_MS + 50);
    });
    expect(box.getAttribute('aria-expanded')).toBe('true');
    const option = screen.getByRole('option', { name: /Pizzeria Libretto/ });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box.getAttribute('aria-activedescendant')).toBe(option.id);
    await act(async () => {
      fireEvent.keyDown(box, { key: 'Enter' });
      await settle();
    });
    expect((box as HTMLInputElement).value).toBe('Pizzeria Libretto');
    expect(s.store.getState().filters.criteria).toMatchObject({ selectedSuggestion: 'Pizzeria Libretto', ordering: 'distance' });

    s.ctx.api.suggest.mockResolvedValue([]);
    fireEvent.change(box, { target: { value: 'zzz' } });
    await act(async () => {
      await wait(SUGGEST_DEBOUNCE_MS + 50);
    });
    expect(screen.getByRole('status').textContent).toBe('No results found');
    expect(screen.queryByRole('listbox')).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Search names' }));
      await settle();
    });
    expect(s.store.getState().filters.criteria).toMatchObject({ keywords: 'zzz', selectedSuggestion: null });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Clear name or place' }));
      await settle();
    });
    expect(s.store.getState().filters.criteria.keywords).toBeNull();
    expect((box as HTMLInputElement).value).toBe('');
  });

  test('the Filters button unfolds the dropdowns and names how many are chosen', () => {
    const s = setup({ selectedFeatures: ['patio'], bestOf: true });
    renderWithStore(<App {...appProps()} />, s.store);
    const toggle = screen.getByRole('button', { name: 'Filters (2)' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    const more = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(more.dataset.open).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(more.dataset.open).toBe('true');
    expect(toggle.textContent).toMatch(/^Hide filters/);
  });

  test('the long choice lists come after the first render: the chosen one at once, all on focus or when idle', async () => {
    const names = (label: string) => Array.from((screen.getByLabelText(label) as HTMLSelectElement).options, (o) => o.text);
    const first = setup({ neighborhoodId: 8 });
    const { unmount } = renderWithStore(<App {...appProps()} />, first.store);
    expect(names('Neighbourhood')).toEqual(['All neighbourhoods', 'Nearby', 'Annex']);
    expect((screen.getByLabelText('Neighbourhood') as HTMLSelectElement).value).toBe('8');
    expect(names('Subway stop')).toEqual(['Any subway stop']);
    // Keyboard and screen readers reach a select by focus: its choices are all there then.
    fireEvent.focus(screen.getByLabelText('Subway stop'));
    expect(names('Subway stop')).toEqual(['Any subway stop', 'Spadina']);
    expect(names('Neighbourhood')).toEqual(['All neighbourhoods', 'Nearby', 'Kensington', 'Annex']);
    fireEvent.change(screen.getByLabelText('Subway stop'), { target: { value: '3' } });
    expect(first.store.getState().filters.criteria.subwayStopId).toBe(3);
    unmount();

    const idle = setup();
    renderWithStore(<App {...appProps()} />, idle.store);
    expect(names('Neighbourhood')).toEqual(['All neighbourhoods', 'Nearby']);
    await act(() => wait(100));
    expect(names('Neighbourhood')).toEqual(['All neighbourhoods', 'Nearby', 'Kensington', 'Annex']);
    expect(names('Subway stop')).toEqual(['Any subway stop', 'Spadina']);
  });

  test('the map view has the slider: Previous hidden on the first card, Next on the last', async () => {
    const ctx = fakeContext();
    ctx.api.search.mockResolvedValue(page(range(1, 2), 2));
    const s = setup({}, ctx, page(range(1, 2), 2));
    renderWithStore(<App {...appProps(page(range(1, 2), 2))} />, s.store);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Map' }));
      await settle();
    });
    const slider = screen.getByRole('region', { name: 'Places slider' });
    expect(slider.getAttribute('aria-roledescription')).toBe('carousel');
    expect(screen.queryByRole('button', { name: 'Previous place' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Next place' })).toBeTruthy();
    expect(screen.getByText('1 of 2')).toBeTruthy();
  });
});
