import { criteriaApiQuery, criteriaPageUrl, defaultHubOrdering, hubApiQuery, hubApiSearchParams, hubQueryString, hubSortTabs, parseHubQuery, type HubCriteria } from './listing-hub';

// The hub rules both sides use: what the hub page reads from a URL is what the island writes.

const criteria = (over: Partial<HubCriteria> = {}): HubCriteria => ({
  categoryIndex: 0, category: 'restaurants', subcategory: null, keywords: null, neighborhoodId: null, subwayStopId: null, selectedSuggestion: null,
  selectedServiceSlug: null, selectedFeatures: [], bestOf: false, ordering: 'name', lat: null, long: null, bbox: null, ...over,
});

describe('shared listing-hub rules', () => {
  test('a URL the island writes reads back as the same filters on the hub page', () => {
    const c = criteria({ subcategory: 'pizza', neighborhoodId: 7, selectedServiceSlug: 'delivery', selectedFeatures: ['patio', 'bbq'], accessibility: ['step_free_entrance', 'quiet_hours'], bestOf: true, openNow: true, ordering: '-rating' });
    const url = new URL(criteriaPageUrl(c, { path: '/restaurants/', fixedNeighbourhood: null, page: 3 }), 'https://site.test');
    expect(url.pathname).toBe('/restaurants/pizza/');
    const parsed = parseHubQuery(Object.fromEntries(url.searchParams));
    expect(parsed).toEqual({ ok: true, query: { selectedCategoryIndex: 0, keywords: undefined, neighborhoodId: '7', subwayStopId: undefined, selectedServiceSlug: 'delivery', selectedFeatures: ['patio', 'bbq'], accessibility: ['step_free_entrance', 'quiet_hours'], bestOf: true, openNow: true, includeClosed: false, ordering: '-rating', point: null } });
    expect(url.searchParams.get('page')).toBe('3');
    // The island's search asks the API for the same filter.
    expect(criteriaApiQuery(c, null, 0).open_now).toBe('true');
    expect(criteriaApiQuery(criteria(), null, 0).open_now).toBeNull();
  });

  test('Include closed places: closed=include in the page URL and the API query, read back on the hub page', () => {
    const c = criteria({ includeClosed: true });
    const url = criteriaPageUrl(c, { path: '/restaurants/', fixedNeighbourhood: null, page: 1 });
    expect(url).toBe('/restaurants/?selectedCategoryIndex=0&closed=include');
    expect(parseHubQuery(Object.fromEntries(new URL(url, 'https://site.test').searchParams))).toMatchObject({ ok: true, query: { includeClosed: true } });
    expect(criteriaApiQuery(c, null, 0).closed).toBe('include');
    expect(criteriaApiQuery(criteria(), null, 0).closed).toBeNull();
    expect(parseHubQuery({ closed: 'exclude' })).toMatchObject({ ok: true, query: { includeClosed: false } });
    expect(parseHubQuery({ closed: 'all' })).toEqual({ ok: false, field: 'closed', message: 'Select a valid choice: exclude, include.' });
  });

  test('selectedCategoryIndex travels first with the other parameters; a bare hub stays bare; a malformed one is refused', () => {
    expect(criteriaPageUrl(criteria({ categoryIndex: 2, bestOf: true }), { path: '/restaurants/', fixedNeighbourhood: null, page: 1 })).toBe('/restaurants/?selectedCategoryIndex=2&bestOf=true');
    expect(criteriaPageUrl(criteria({ categoryIndex: 2 }), { path: '/restaurants/', fixedNeighbourhood: null, page: 1 })).toBe('/restaurants/');
    expect(parseHubQuery({ selectedCategoryIndex: '2' })).toMatchObject({ ok: true, query: { selectedCategoryIndex: 2 } });
    expect(parseHubQuery({ selectedCategoryIndex: 'x' })).toEqual({ ok: false, field: 'selectedCategoryIndex', message: 'A valid integer is required.' });
  });

  test('repeated single-value parameters are refused, features come repeated or comma-separated', () => {
    expect(parseHubQuery({ ordering: ['name', '-rating'] })).toEqual({ ok: false, field: 'ordering', message: 'Choose one value.' });
    const ok = parseHubQuery({ selectedFeatures: ['Patio,rooftop', 'patio'], bestOf: 'on', lat: '43.6', long: '-79.4' });
    expect(ok.ok && ok.query).toMatchObject({ selectedFeatures: ['patio', 'rooftop'], bestOf: true, point: { lat: 43.6, long: -79.4 } });
  });

  test('the default ordering is left out of the island’s URL and is the hub’s MOST RECENT tab on a sub-category', () => {
    expect(defaultHubOrdering({ subcategory: 'pizza' })).toBe('smart_review');
    expect(defaultHubOrdering({ subwayStopId: 3, subcategory: 'pizza' })).toBe('distance');
    expect(hubSortTabs('pizza').at(-1)).toEqual({ label: 'MOST RECENT', ordering: 'smart_review' });
    expect(hubQueryString({ selectedFeatures: [], bestOf: false, ordering: 'name' }, { defaultOrdering: 'name' })).toBe('');
    expect(hubQueryString({ selectedFeatures: [], bestOf: false, ordering: 'name' })).toBe('ordering=name');
  });

  test('the API query drops what is not chosen', () => {
    const q = hubApiSearchParams(hubApiQuery({ type: 1, features: [], bestOf: false, ordering: 'name' }, 40));
    expect(q.toString()).toBe('type=1&ordering=name&limit=40&offset=40');
  });
});
