/// <reference types="jest" />
import type { ListingDTO, Page } from '../../shared/dto';
import { createListingSearchStore, type ListingSearchContext } from './store';
import type { HubOptions, HubParams, HubPrintedPage, ListingSearchInitialState } from '../../shared/listing-hub';

// Fixtures for the listing-search tests: a hub state like server/apps/listings/pages.ts
// prints, and a context whose every part is a jest mock.

export function listing(id: number, over: Partial<ListingDTO> = {}): ListingDTO {
  return {
    id,
    name: `Place ${id}`,
    image_url: null,
    share_url: `https://site.test/restaurants/place-${id}-${id}/`,
    review_url: `https://site.test/restaurants/place-${id}-${id}/#review`,
    coordinates: { latitude: 43.65 + id / 1000, longitude: -79.4 },
    type: { id: 1, name: 'Restaurants', slug: 'restaurants', share_url: 'https://site.test/restaurants/' },
    sub_type: null,
    default_neighborhood: { id: 7, name: 'Kensington', path: '/kensington/' },
    rating: 4.5,
    rating_count: 2,
    appears_in_best_of_lists: false,
    address: `${id} Augusta Ave`,
    phone: '(416) 555-0100',
    website: 'https://example.com',
    dinesafe_establishment_id: null,
    favourite_count: 0,
    date_published: '2026-01-01T00:00:00Z',
    ...over,
  } as ListingDTO;
}

export function page(ids: number[], count: number): Page<ListingDTO> {
  return { count, next: null, previous: null, results: ids.map((i) => listing(i)) };
}

/** The state's view of a first page the hub printed: its cards by id. */
export function printed(first: Page<ListingDTO>): HubPrintedPage {
  return { count: first.count, next: first.next, previous: first.previous, ids: first.results.map((l) => l.id) };
}

/**
 * The cards of a printed page as the hub's HTML has them (templates/places/partials/listing-card.njk,
 * shortened: the link and the saves placeholder), as main.tsx hands them to the App.
 */
export function printedCards(first: Page<ListingDTO>): HTMLElement[] {
  const ul = document.createElement('ul');
  ul.innerHTML = first.results
    .map(
      (l) =>
        `<li class="place-card" data-printed="${l.id}"><a class="place-card__link" href="/restaurants/place-${l.id}-${l.id}/"><span class="place-card__body"><h3 class="place-card__name">${l.name}</h3></span></a>` +
        `<div data-island="saves" class="save-control save-control--listing-compact" data-save="listing-compact" data-object-id="${l.id}"><a class="save-control__login" href="/accounts/login?next=%2Frestaurants%2F" rel="nofollow">Log in to save or rate</a></div></li>`,
    )
    .join('');
  return Array.from(ul.children) as HTMLElement[];
}

export const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

/** The filter options the island fetches for these hubs. */
export function hubOptions(): HubOptions {
  return {
    types: [
      { id: 1, name: 'Restaurants', slug: 'restaurants', sub_types: [{ id: 11, name: 'Pizza', slug: 'pizza', index: 0 }] },
      { id: 2, name: 'Bars', slug: 'bars', sub_types: [] },
    ],
    neighbourhoods: [
      { id: 7, name: 'Kensington', slug: 'kensington' },
      { id: 8, name: 'Annex', slug: 'annex' },
    ],
    subwayStops: [{ id: 3, name: 'Spadina' }],
    features: [
      { id: 1, name: 'Patio', slug: 'patio' },
      { id: 2, name: 'Wheelchair accessible', slug: 'wheelchair-accessible' },
    ],
    services: [{ id: 1, name: 'Delivery', slug: 'delivery' }],
  };
}

export function hubState(params: Partial<HubParams> = {}, first = firstPage()): ListingSearchInitialState {
  return {
    params: {
      selectedCategoryIndex: 0,
      category: 'restaurants',
      subcategory: null,
      neighborhoodId: null,
      subwayStopId: null,
      selectedServiceSlug: null,
      selectedFeatures: [],
      bestOf: false,
      ordering: 'name',
      page: 1,
      fixedNeighbourhood: null,
      ...params,
    },
    results: printed(first),
    optionsUrl: '/api/v2/listings/hub-options/?v=test',
  };
}

/** The first page the tests' hub printed: 40 of 100. */
export const firstPage = () => page(range(1, 40), 100);

/** The App's props as main.tsx passes them for the restaurants hub that printed `first`. */
export function appProps(first = firstPage()) {
  return {
    printedCards: printedCards(first),
    options: hubOptions(),
    card: { siteUrl: 'https://site.test', cityName: 'Toronto', member: false, next: '/restaurants/' },
    centre: { latitude: 43.65, longitude: -79.38 },
    path: '/restaurants/',
    geolocation: true,
  };
}

export interface FakeContext extends ListingSearchContext {
  api: { search: jest.Mock; suggest: jest.Mock; options: jest.Mock };
  navigate: jest.Mock;
  replaceUrl: jest.Mock;
  currentPath: jest.Mock;
  locate: jest.Mock;
}

export function fakeContext(over: Partial<FakeContext> = {}): FakeContext {
  return {
    api: {
      search: jest.fn().mockResolvedValue(page([501, 502], 2)),
      suggest: jest.fn().mockResolvedValue([{ kind: 'place', id: 90, name: 'Pizzeria Libretto', address: '221 Ossington Ave', lat: 43.649, long: -79.42 }]),
      options: jest.fn().mockResolvedValue(hubOptions()),
    },
    navigate: jest.fn(),
    replaceUrl: jest.fn(),
    currentPath: jest.fn().mockReturnValue('/restaurants/'),
    locate: jest.fn().mockResolvedValue({ lat: 43.66, long: -79.4 }),
    ...over,
  };
}

export function setup(params: Partial<HubParams> = {}, ctx: FakeContext = fakeContext(), first?: Page<ListingDTO>) {
  const store = createListingSearchStore(hubState(params, first), ctx);
  return { store, ctx };
}

export const settle = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
  await new Promise((resolve) => setTimeout(resolve, 0));
};
