import { accessibilityValue, isClearMajority, ACCESSIBILITY_MAJORITY } from './accessibility';
import { criteriaApiQuery, criteriaPageUrl, hubApiSearchParams, parseHubQuery, type HubCriteria } from './listing-hub';

// The clear-majority rule at its edges, staff's verification winning, and the accessibility
// filter travelling through the hub's URL and API query as the island and the page build them.

describe('the clear majority', () => {
  test.each([
    [2, 0, true],
    [1, 0, false],
    [2, 1, true],
    [3, 2, false],
    [4, 2, true],
    [5, 3, false],
    [0, 0, false],
  ])('%i yes against %i no is a clear yes: %s', (yes, no, clear) => {
    expect(isClearMajority(yes, no)).toBe(clear);
  });

  test('is the constant documented in docs/features.md: at least 2, and twice the other side', () => {
    expect(ACCESSIBILITY_MAJORITY).toEqual({ min: 2, ratio: 2 });
  });

  test('a verification outranks any reports; without one, a clear majority either way, else unknown', () => {
    expect(accessibilityValue({ verified: false, yes_count: 9, no_count: 0 })).toBe('no');
    expect(accessibilityValue({ verified: true, yes_count: 0, no_count: 9 })).toBe('yes');
    expect(accessibilityValue({ verified: null, yes_count: 0, no_count: 2 })).toBe('no');
    expect(accessibilityValue({ verified: null, yes_count: 3, no_count: 2 })).toBe('unknown');
  });
});

describe('the accessibility filter in the hub', () => {
  const criteria: HubCriteria = {
    categoryIndex: 0, category: 'restaurants', subcategory: null, neighborhoodId: null, subwayStopId: null, keywords: null, selectedSuggestion: null,
    selectedServiceSlug: null, selectedFeatures: [], accessibility: ['step_free_entrance', 'accessible_washroom'], bestOf: false, ordering: 'name', lat: null, long: null, bbox: null,
  };

  test('is one comma list in the page URL and the API query', () => {
    expect(criteriaPageUrl(criteria, { path: '/restaurants/', fixedNeighbourhood: null, page: 1 })).toBe('/restaurants/?selectedCategoryIndex=0&accessibility=step_free_entrance%2Caccessible_washroom');
    expect(hubApiSearchParams(criteriaApiQuery(criteria, null, 0)).get('accessibility')).toBe('step_free_entrance,accessible_washroom');
  });

  test('is read from a comma list or from repeated checkboxes', () => {
    const read = (q: Record<string, unknown>) => { const r = parseHubQuery(q); return r.ok ? r.query.accessibility : null; };
    expect(read({ accessibility: 'step_free_entrance,quiet_hours' })).toEqual(['step_free_entrance', 'quiet_hours']);
    expect(read({ accessibility: ['quiet_hours', 'quiet_hours', 'large_print_menu'] })).toEqual(['quiet_hours', 'large_print_menu']);
    expect(read({})).toEqual([]);
  });
});
