import type { Request } from 'express';
import { hubApiQuery, hubApiSearchParams } from '../../../shared/listing-hub';
import { ValidationError } from '../../http/errors';
import { hubQuery, hubSearchParams, hubUrl, listingOrdering, NO_CRITERIA, readListingCriteria, type ListingCriteria } from './listing-criteria';
import { parseListingSearchParams } from './search-params';

// The hub's criteria: read once from the URL (checked, typed), written back only by hubUrl,
// and made into the list query without a query string between.

/** A request for this query string, as Express' query parser gives it (a repeated name is an array). */
function requestFor(search: string): Request {
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(search)) {
    const had = query[k];
    query[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return { query } as unknown as Request;
}

function fieldsOf(fn: () => unknown): Record<string, string[]> | null {
  try {
    fn();
    return null;
  } catch (err) {
    if (err instanceof ValidationError) return err.fields;
    throw err;
  }
}

describe('listing hub criteria', () => {
  test('read from the URL as typed values: ids as numbers, slugs checked, features from checkboxes or a list', () => {
    const c = readListingCriteria(requestFor('keywords=%20pizza%20&neighborhoodId=12&subwayStopId=3&selectedServiceSlug=delivery&selectedFeatures=patio&selectedFeatures=Rooftop,patio&accessibility=step_free_entrance&bestOf=on&openNow=true&closed=include&ordering=-rating&selectedCategoryIndex=1&page=3'));
    expect(c).toEqual({
      categoryIndex: 1,
      keywords: 'pizza',
      neighbourhoodId: 12,
      subwayStopId: 3,
      service: 'delivery',
      features: ['patio', 'rooftop'],
      accessibility: ['step_free_entrance'],
      bestOf: true,
      openNow: true,
      includeClosed: true,
      ordering: '-rating',
      page: 3,
    });
    expect(readListingCriteria(requestFor(''))).toEqual(NO_CRITERIA);
  });

  test("ordering by distance without a subway stop is the island's (it has the position): the page keeps the hub's default", () => {
    expect(readListingCriteria(requestFor('lat=43.6&long=-79.4&ordering=distance')).ordering).toBeNull();
    expect(readListingCriteria(requestFor('subwayStopId=4&ordering=distance')).ordering).toBe('distance');
  });

  test('a bad value is a 400 naming its field, as the listing search names it', () => {
    expect(fieldsOf(() => readListingCriteria(requestFor('neighborhoodId=abc')))).toHaveProperty('default_neighborhood');
    expect(fieldsOf(() => readListingCriteria(requestFor('subwayStopId=0')))).toHaveProperty('subway_stop');
    expect(fieldsOf(() => readListingCriteria(requestFor('selectedServiceSlug=%3Cb%3E')))).toHaveProperty('service');
    expect(fieldsOf(() => readListingCriteria(requestFor('ordering=evil')))).toHaveProperty('ordering');
    expect(fieldsOf(() => readListingCriteria(requestFor('closed=all')))).toHaveProperty('closed');
    expect(fieldsOf(() => readListingCriteria(requestFor('accessibility=wings')))).toHaveProperty('accessibility');
    expect(fieldsOf(() => readListingCriteria(requestFor(`keywords=${'x'.repeat(101)}`)))).toHaveProperty('keywords');
    expect(fieldsOf(() => readListingCriteria(requestFor('ordering=name&ordering=-rating')))).toEqual({ ordering: ['Choose one value.'] });
    expect(fieldsOf(() => readListingCriteria(requestFor('page=0')))).toHaveProperty('page');
  });

  test('hubUrl writes back the URL it read (stable order, page from 2 on, the category index first)', () => {
    for (const search of [
      '',
      'page=2',
      'ordering=-rating',
      'keywords=place+0&ordering=-rating',
      'openNow=true&closed=include&ordering=-rating',
      'selectedCategoryIndex=0&neighborhoodId=7&subwayStopId=2&selectedServiceSlug=delivery&selectedFeatures=patio%2Crooftop&accessibility=step_free_entrance&bestOf=true&ordering=name&page=4',
    ]) {
      expect(hubUrl('/restaurants/', readListingCriteria(requestFor(search)))).toBe(search ? `/restaurants/?${search}` : '/restaurants/');
    }
    // The numbered links' query leaves the page to them; the canonical URL keeps only the page.
    const c = readListingCriteria(requestFor('bestOf=true&page=3'));
    expect(hubQuery({ ...c, page: 1 })).toBe('bestOf=true');
    expect(hubUrl('/restaurants/', { ...NO_CRITERIA, page: c.page })).toBe('/restaurants/?page=3');
  });

  test("the list query is the listing API's parse of the same search, key for key (the search's cached answers are shared by that key)", () => {
    const cases: Array<[string, { typeId: number; subTypeId?: number; neighbourhoodId?: number }]> = [
      ['', { typeId: 5 }],
      ['page=2&ordering=-rating', { typeId: 5, subTypeId: 9 }],
      ['keywords=pizza&neighborhoodId=12&selectedServiceSlug=delivery&selectedFeatures=patio,rooftop&accessibility=step_free_entrance&bestOf=true&page=3', { typeId: 5 }],
      ['subwayStopId=3', { typeId: 5 }],
      ['bestOf=true', { typeId: 5, neighbourhoodId: 40 }],
      ['closed=include&page=2', { typeId: 5 }],
    ];
    for (const [search, ids] of cases) {
      const c: ListingCriteria = readListingCriteria(requestFor(search));
      const ordering = c.ordering ?? (c.subwayStopId ? undefined : listingOrdering('name'));
      const window = { limit: 40, offset: (c.page - 1) * 40 };
      const api = hubApiQuery(
        { type: ids.typeId, subType: ids.subTypeId, keywords: c.keywords, neighbourhood: ids.neighbourhoodId ?? c.neighbourhoodId, subwayStopId: c.subwayStopId, service: c.service, features: c.features, accessibility: c.accessibility, bestOf: c.bestOf, includeClosed: c.includeClosed, ordering },
        window.offset,
        window.limit,
      );
      const parsed = parseListingSearchParams(Object.fromEntries(hubApiSearchParams(api)));
      const built = hubSearchParams(c, ids, window, ordering);
      expect([search, JSON.stringify(built)]).toEqual([search, JSON.stringify(parsed)]);
    }
  });

  test('a sort tab or default ordering outside the search orderings is a programming error', () => {
    expect(listingOrdering('smart_review')).toBe('smart_review');
    expect(() => listingOrdering('random')).toThrow('Not a listing ordering');
  });
});
