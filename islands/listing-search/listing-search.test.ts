/// <reference types="jest" />
import { filters, filtersSlice, initialFilters } from './slices/filters';
import { currentPage, initialResults, loadedCount, nextPageOffset, results, resultsSlice, type ResultsState } from './slices/results';
import { criteriaApiQuery as apiQuery, criteriaPageUrl as pageUrl, NEARBY_ID, pointFromSearch as pointFromUrl } from '../../shared/listing-hub';
import { neighbourhoodHubChosen } from './actions';
import { hubState, fakeContext, page, printed, range, settle, setup } from './testing';

const LIBRETTO = { name: 'Libretto', lat: 43.649, long: -79.42 };
const base = () => initialFilters(hubState().params);
const reduce = (...actions: Parameters<typeof filtersSlice.reducer>[1][]) => actions.reduce(filtersSlice.reducer, base());

describe('listing filters: the reset rules of spec 2 §4', () => {
  test('a new category resets the sub-category', () => {
    const s = reduce(filters.subCategoryChosen('pizza'), filters.categoryChosen({ index: 1, slug: 'bars' }));
    expect(s.criteria).toMatchObject({ categoryIndex: 1, category: 'bars', subcategory: null });
  });

  test('a neighbourhood resets the suggestion and the subway stop, clears coordinates, and distance goes', () => {
    const s = reduce(filters.suggestionChosen({ name: 'pizza near me', lat: 43.65, long: -79.4 }), filters.subwayStopChosen(3), filters.neighbourhoodChosen(7));
    expect(s.criteria).toMatchObject({ neighborhoodId: 7, subwayStopId: null, selectedSuggestion: null, lat: null, long: null, ordering: 'smart_review' });
    const nearby = reduce(filters.nearbyLocated({ lat: 43.6, long: -79.4 }), filters.neighbourhoodChosen(8));
    expect(nearby.criteria).toMatchObject({ neighborhoodId: 8, lat: null, long: null, ordering: 'smart_review' });
  });

  test('a subway stop resets the neighbourhood and the suggestion and orders by distance; clearing it goes back to smart_review', () => {
    const s = reduce(filters.neighbourhoodChosen(7), filters.subwayStopChosen(3));
    expect(s.criteria).toMatchObject({ subwayStopId: 3, neighborhoodId: null, selectedSuggestion: null, ordering: 'distance' });
    expect(filtersSlice.reducer(s, filters.subwayStopChosen(null)).criteria.ordering).toBe('smart_review');
  });

  test('a suggestion resets both; clearing it sets smart_review', () => {
    const s = reduce(filters.subwayStopChosen(3), filters.suggestionChosen(LIBRETTO));
    expect(s.criteria).toMatchObject({ selectedSuggestion: 'Libretto', neighborhoodId: null, subwayStopId: null });
    const n = reduce(filters.neighbourhoodChosen(7), filters.suggestionChosen(LIBRETTO));
    expect(n.criteria.neighborhoodId).toBeNull();
    expect(filtersSlice.reducer(n, filters.suggestionChosen(null)).criteria.ordering).toBe('smart_review');
  });

  test('Nearby waits for a position (locating), which orders by distance; a denial resets the neighbourhood', () => {
    const asked = reduce(filters.neighbourhoodChosen(NEARBY_ID));
    expect(asked).toMatchObject({ locating: true, criteria: { neighborhoodId: NEARBY_ID } });
    const located = filtersSlice.reducer(asked, filters.nearbyLocated({ lat: 43.66, long: -79.4 }));
    expect(located).toMatchObject({ locating: false, criteria: { lat: 43.66, long: -79.4, ordering: 'distance' } });
    const denied = filtersSlice.reducer(asked, filters.nearbyDenied());
    expect(denied).toMatchObject({ locating: false, criteria: { neighborhoodId: null, lat: null } });
  });

  test('distance is refused without a point or a station', () => {
    expect(reduce(filters.orderingChosen('distance')).criteria.ordering).toBe('smart_review');
    expect(reduce(filters.subwayStopChosen(3), filters.orderingChosen('-rating')).criteria.ordering).toBe('-rating');
  });
});

describe('results: paging appends, a new search replaces', () => {
  const first = initialResults(printed(page(range(1, 40), 100)), 1);
  const ids = (s: ResultsState) => [...s.printed, ...s.items.map((i) => i.id)];

  test('a next page appends after the printed cards (without duplicates); a new search replaces them; old generations are ignored', () => {
    expect(first).toMatchObject({ printed: range(1, 40), items: [] });
    let s = resultsSlice.reducer(first, results.pageLoaded({ generation: 0, offset: 40, append: true, page: page(range(40, 41), 100) }));
    expect(s.printed).toEqual(range(1, 40));
    expect(ids(s)).toEqual(range(1, 80));
    expect(nextPageOffset(s)).toBe(80);
    expect(currentPage(s)).toBe(2);
    s = resultsSlice.reducer(s, results.searchStarted());
    const stale = resultsSlice.reducer(s, results.pageLoaded({ generation: 0, offset: 80, append: true, page: page([999], 100) }));
    expect(loadedCount(stale)).toBe(80);
    s = resultsSlice.reducer(s, results.pageLoaded({ generation: 1, offset: 0, append: false, page: page([5, 6], 2) }));
    expect(s).toMatchObject({ count: 2, isFetching: false, startOffset: 0, printed: [] });
    expect(s.items.map((i) => i.id)).toEqual([5, 6]);
    expect(nextPageOffset(s)).toBeNull();
  });

  test('a hub printed at ?page=3 continues at offset 120; a failed search empties the list, a failed page keeps it', () => {
    const p3 = initialResults(printed(page(range(81, 40), 200)), 3);
    expect(nextPageOffset(p3)).toBe(120);
    expect(currentPage(p3)).toBe(3);
    const keep = resultsSlice.reducer(p3, results.pageFailed({ generation: 0, append: true }));
    expect(loadedCount(keep)).toBe(40);
    const empty = resultsSlice.reducer(p3, results.pageFailed({ generation: 0, append: false }));
    expect(empty).toMatchObject({ printed: [], items: [], count: 0 });
  });

  test('the printed cards as data (for the map) go ahead of later pages, once; an older generation is ignored', () => {
    let s = resultsSlice.reducer(first, results.pageLoaded({ generation: 0, offset: 40, append: true, page: page(range(41, 40), 100) }));
    s = resultsSlice.reducer(s, results.printedLoaded({ generation: 0, page: page(range(1, 40), 100) }));
    expect(s.printed).toEqual([]);
    expect(ids(s)).toEqual(range(1, 80));
    expect(nextPageOffset(s)).toBe(80);
    const again = resultsSlice.reducer(s, results.printedLoaded({ generation: 0, page: page([1], 100) }));
    expect(ids(again)).toEqual(range(1, 80));
    const newer = resultsSlice.reducer(first, results.searchStarted());
    expect(resultsSlice.reducer(newer, results.printedLoaded({ generation: 0, page: page(range(1, 40), 100) })).printed).toEqual(range(1, 40));
  });
});

describe('query: the API parameters and the URL names', () => {
  const c = () => ({ ...base().criteria });

  test('API query carries every criterion under the API names', () => {
    const q = apiQuery({ ...c(), subcategory: 'pizza', subwayStopId: 3, selectedServiceSlug: 'delivery', selectedFeatures: ['patio', 'wheelchair-accessible'], bestOf: true, ordering: 'distance', bbox: [-79.41, 43.64, -79.39, 43.67] }, null, 40);
    expect(q).toMatchObject({
      type: 'restaurants', sub_type: 'pizza', subway_stop: 3, service: 'delivery', features: 'patio,wheelchair-accessible',
      appears_in_best_of_lists: 'true', ordering: 'distance', bbox: '-79.41000,43.64000,-79.39000,43.67000', limit: 40, offset: 40, default_neighborhood: null,
    });
    expect(apiQuery({ ...c(), neighborhoodId: NEARBY_ID, lat: 43.6, long: -79.4 }, null, 0)).toMatchObject({ latitude: 43.6, longitude: -79.4, default_neighborhood: null });
    expect(apiQuery({ ...c(), neighborhoodId: 8 }, 7, 0).default_neighborhood).toBe(7);
  });

  test('the URL uses the island names, drops defaults, and names the sub-category path', () => {
    expect(pageUrl(c(), { path: '/restaurants/', fixedNeighbourhood: null, page: 1 })).toBe('/restaurants/');
    expect(pageUrl({ ...c(), neighborhoodId: 7, selectedFeatures: ['patio', 'bbq'], selectedServiceSlug: 'delivery', bestOf: true, ordering: '-rating' }, { path: '/restaurants/', fixedNeighbourhood: null, page: 2 })).toBe(
      '/restaurants/?selectedCategoryIndex=0&neighborhoodId=7&selectedServiceSlug=delivery&selectedFeatures=patio%2Cbbq&bestOf=true&ordering=-rating&page=2',
    );
    expect(pageUrl({ ...c(), subcategory: 'pizza', ordering: 'smart_review' }, { path: '/restaurants/', fixedNeighbourhood: null, page: 1 })).toBe('/restaurants/pizza/');
    expect(pageUrl({ ...c(), subwayStopId: 3, ordering: 'distance' }, { path: '/restaurants/', fixedNeighbourhood: null, page: 1 })).toBe('/restaurants/?selectedCategoryIndex=0&subwayStopId=3');
    expect(pageUrl({ ...c(), neighborhoodId: NEARBY_ID, lat: 43.6, long: -79.4, ordering: 'distance' }, { path: '/restaurants/', fixedNeighbourhood: null, page: 1 })).toBe('/restaurants/?selectedCategoryIndex=0&lat=43.6&long=-79.4&ordering=distance');
    expect(pageUrl(c(), { path: '/restaurants/n/7/kensington/', fixedNeighbourhood: 7, page: 1 })).toBe('/restaurants/n/7/kensington/');
    expect(pointFromUrl('?lat=43.6&long=-79.4')).toEqual({ lat: 43.6, long: -79.4 });
    expect(pointFromUrl('?lat=abc&long=-79.4')).toBeNull();
  });
});

describe('listing search sagas', () => {
  test('a criteria change searches from offset 0, replaces the list and syncs the URL', async () => {
    const { store, ctx } = setup();
    store.dispatch(filters.subwayStopChosen(3));
    expect(store.getState().results.isFetching).toBe(true);
    await settle();
    expect(ctx.api.search).toHaveBeenCalledTimes(1);
    expect(ctx.api.search.mock.calls[0][0]).toMatchObject({ subway_stop: 3, ordering: 'distance', offset: 0, limit: 40 });
    expect(store.getState().results.items.map((i) => i.id)).toEqual([501, 502]);
    expect(ctx.replaceUrl).toHaveBeenLastCalledWith('/restaurants/?selectedCategoryIndex=0&subwayStopId=3');
  });

  test('scrolled to the bottom: the next page is appended and ?page= follows; one request at a time', async () => {
    const ctx = fakeContext();
    ctx.api.search.mockResolvedValue(page(range(41, 40), 100));
    const { store } = setup({}, ctx);
    store.dispatch(results.nextPageRequested());
    store.dispatch(results.nextPageRequested());
    await settle();
    expect(ctx.api.search).toHaveBeenCalledTimes(1);
    expect(ctx.api.search.mock.calls[0][0]).toMatchObject({ offset: 40, type: 'restaurants' });
    expect(loadedCount(store.getState().results)).toBe(80);
    expect(ctx.replaceUrl).toHaveBeenLastCalledWith('/restaurants/?selectedCategoryIndex=0&page=2');
  });

  test('opening the map on the printed cards fetches them as data, once, from the printed page on', async () => {
    const ctx = fakeContext();
    ctx.api.search.mockResolvedValue(page(range(81, 40), 200));
    const { store } = setup({ page: 3 }, ctx, page(range(81, 40), 200));
    store.dispatch(filters.viewChosen('map'));
    store.dispatch(filters.viewChosen('list'));
    store.dispatch(filters.viewChosen('map'));
    await settle();
    expect(ctx.api.search).toHaveBeenCalledTimes(1);
    expect(ctx.api.search.mock.calls[0][0]).toMatchObject({ offset: 80, limit: 40, bundle_type: 'medium', type: 'restaurants' });
    expect(store.getState().results).toMatchObject({ printed: [], startOffset: 80 });
    expect(store.getState().results.items.map((i) => i.id)).toEqual(range(81, 40));
    store.dispatch(filters.viewChosen('map'));
    await settle();
    expect(ctx.api.search).toHaveBeenCalledTimes(1);
    expect(ctx.replaceUrl).not.toHaveBeenCalled();
  });

  test('takeLatest: only the newest search lands, and a page 2 that was in flight is dropped', async () => {
    const resolvers: Array<(p: unknown) => void> = [];
    const ctx = fakeContext();
    ctx.api.search.mockImplementation(() => new Promise((r) => resolvers.push(r)));
    const { store } = setup({}, ctx);
    store.dispatch(results.nextPageRequested());
    store.dispatch(filters.bestOfChosen(true));
    store.dispatch(filters.serviceChosen('delivery'));
    await settle();
    expect(ctx.api.search).toHaveBeenCalledTimes(3);
    resolvers[0](page([900], 100)); // the old page 2
    resolvers[1](page([901], 1)); // the cancelled search
    resolvers[2](page([902, 903], 2));
    await settle();
    expect(store.getState().results.items.map((i) => i.id)).toEqual([902, 903]);
    expect(ctx.api.search.mock.calls[2][0]).toMatchObject({ appears_in_best_of_lists: 'true', service: 'delivery', offset: 0 });
  });

  test('Include closed places: the search asks for closed=include and the page URL keeps it, as the no-JS form sends it', async () => {
    const { store, ctx } = setup();
    store.dispatch(filters.includeClosedChosen(true));
    await settle();
    expect(ctx.api.search.mock.calls[0][0]).toMatchObject({ closed: 'include', offset: 0 });
    expect(ctx.replaceUrl).toHaveBeenLastCalledWith('/restaurants/?selectedCategoryIndex=0&closed=include');
    // A hub page opened with closed=include starts with the box checked.
    expect(setup({ includeClosed: true }).store.getState().filters.criteria.includeClosed).toBe(true);
  });

  test('Nearby: geolocation then a search by position; a denial resets the choice and searches without it', async () => {
    const { store, ctx } = setup();
    store.dispatch(filters.neighbourhoodChosen(NEARBY_ID));
    await settle();
    expect(ctx.locate).toHaveBeenCalled();
    expect(ctx.api.search).toHaveBeenCalledTimes(1);
    expect(ctx.api.search.mock.calls[0][0]).toMatchObject({ latitude: 43.66, longitude: -79.4, ordering: 'distance' });

    const denied = setup({}, fakeContext({ locate: jest.fn().mockRejectedValue(new Error('denied')) }));
    denied.store.dispatch(filters.neighbourhoodChosen(NEARBY_ID));
    await settle();
    expect(denied.store.getState().filters).toMatchObject({ locating: false, criteria: { neighborhoodId: null } });
    expect(denied.ctx.api.search.mock.calls[0][0]).toMatchObject({ latitude: null, default_neighborhood: null });
  });

  test('a new category navigates to its hub keeping the filters; on a neighbourhood hub to the same neighbourhood', async () => {
    const { store, ctx } = setup({ subcategory: 'pizza', ordering: 'smart_review', selectedServiceSlug: 'delivery' });
    store.dispatch(filters.categoryChosen({ index: 1, slug: 'bars' }));
    await settle();
    expect(ctx.navigate).toHaveBeenCalledWith('/bars/?selectedCategoryIndex=1&selectedServiceSlug=delivery&ordering=smart_review');
    expect(ctx.api.search).not.toHaveBeenCalled();

    const fixedCtx = fakeContext({ currentPath: jest.fn().mockReturnValue('/restaurants/n/7/kensington/') });
    const fixed = setup({ fixedNeighbourhood: 7, neighborhoodId: 7 }, fixedCtx);
    fixed.store.dispatch(filters.categoryChosen({ index: 1, slug: 'bars' }));
    fixed.store.dispatch(neighbourhoodHubChosen({ id: 8, slug: 'annex' }));
    await settle();
    expect(fixedCtx.navigate.mock.calls).toEqual([['/bars/n/7/kensington/'], ['/bars/n/8/annex/']]);
  });

  test('a sub-category searches in place and the URL names its path; a failed search shows none', async () => {
    const ctx = fakeContext();
    const { store } = setup({}, ctx);
    store.dispatch(filters.subCategoryChosen('pizza'));
    await settle();
    expect(ctx.api.search.mock.calls[0][0]).toMatchObject({ type: 'restaurants', sub_type: 'pizza' });
    expect(ctx.replaceUrl).toHaveBeenLastCalledWith('/restaurants/pizza/?selectedCategoryIndex=0&ordering=name');
    ctx.api.search.mockRejectedValueOnce(new Error('offline'));
    store.dispatch(filters.featuresChosen(['patio']));
    await settle();
    expect(store.getState().results).toMatchObject({ items: [], count: 0, failed: true, isFetching: false });
  });
});
