/// <reference types="jest" />
import type { z } from 'zod';
import {
  favouriteSchema,
  hubPrintedPageSchema,
  listingSchema,
  pageSchema,
  profileCountsSchema,
  profileSchema,
  todoSchema,
} from '../../shared/dto-schemas';
import * as dashboard from '../dashboard/testing';
import * as listingSearch from '../listing-search/testing';

// The islands' fake API answers keep the shapes the real routes answer: both are parsed with
// shared/dto-schemas.ts (the server side: server/apps/saves/dto-contract.test.ts).

function expectShape(schema: z.ZodType, value: unknown): void {
  const parsed = schema.safeParse(value);
  expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
}

describe('island fixtures match the API’s DTO schemas', () => {
  test('dashboard: profile, counts, favourites, to-dos and their pages', () => {
    expectShape(profileSchema, dashboard.profile());
    expectShape(profileCountsSchema, dashboard.counts({ favourite_count: 3 }));
    expectShape(listingSchema, dashboard.listing(1));
    expectShape(favouriteSchema, dashboard.favourite(1));
    expectShape(todoSchema, dashboard.todo(1));
    expectShape(todoSchema, dashboard.todo(2, true));
    expectShape(pageSchema(favouriteSchema), dashboard.page([dashboard.favourite(1)]));
    expectShape(pageSchema(favouriteSchema, { serverTime: true }), dashboard.bookmarkPage([dashboard.favourite(1)]));
  });

  test('listing search: listings, pages and the hub page’s first page', () => {
    expectShape(listingSchema, listingSearch.listing(1));
    expectShape(pageSchema(listingSchema), listingSearch.page([1, 2], 2));
    expectShape(hubPrintedPageSchema, listingSearch.hubState().results);
  });
});
