import request from 'supertest';
import type { Request, Response } from 'express';
import { createTestContext, type TestContext } from '../testing/test-app';
import { createNeighbourhood } from '../testing/fixtures';
import { cacheTallies } from '../cache/memory-cache';
import { placeKeys, storyKeys, eventKeys } from '../http/surrogate-keys';
import { createHomeService } from './home/service';
import { createListingsService } from './listings/service';
import { navbarLocals } from '../http/navbar';
import type { ContentChange } from '../cache/change-notices';

// The small per-app caches forget by what a change names (issue 40, "one truth for every
// cache"): each listens to the change notices and drops its value only when a change names a
// key of what it shows, or names none (a reconnect). Whether the next read was a hit or a miss
// is read from the cache's own look-up counts (the figures' hit ratio, memory-cache.ts).

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const place = { subject: 'place:7', paths: [], keys: placeKeys({ id: 7, typeSlug: 'restaurants', neighbourhoodId: 3 }) };
const story: ContentChange = { subject: 'story:12', paths: [], keys: storyKeys(12, 'city-hall') };
const event: ContentChange = { subject: 'events:4', paths: [], keys: eventKeys([4]) };
const reconnect: ContentChange = { subject: 'reconnected', paths: [] };

/** Whether read() was served from the cache of this catalogue name (its hits grew). */
async function wasHit(name: string, read: () => Promise<unknown>): Promise<boolean> {
  const before = cacheTallies().get(name)?.hits ?? 0;
  await read();
  return (cacheTallies().get(name)?.hits ?? 0) > before;
}

/** After each change, whether the next read was still a hit; each read refills the cache. */
async function hitsAfter(name: string, read: () => Promise<unknown>, changes: ContentChange[]): Promise<boolean[]> {
  await read();
  const out: boolean[] = [];
  for (const change of changes) {
    await t.ctx.changes.announce(change);
    out.push(await wasHit(name, read));
  }
  return out;
}

test('the home sections go with a change naming the home (a story, an event), not with a place', async () => {
  const home = createHomeService(t.ctx);
  expect(await hitsAfter('home-sections', () => home.data(), [place, story, place, event, reconnect])).toEqual([true, false, true, false, false]);
});

test('the navbar menus go with a story, a section or a hub (a place names its hub), not with an event', async () => {
  const navbar = navbarLocals(t.ctx);
  const read = () =>
    new Promise<void>((resolve, reject) => {
      navbar({ method: 'GET', path: '/' } as Request, { locals: { islands: [], initialState: {} } } as unknown as Response, () => resolve()).catch(reject);
    });
  expect(await hitsAfter('navbar-menus', read, [event, story, event, place, reconnect])).toEqual([true, false, true, false, false]);
});

test("the hub options go with a place's change, not a story's; a boundary only with its own neighbourhood's", async () => {
  const listings = createListingsService(t.ctx);
  expect(await hitsAfter('hub-options', () => listings.loadedHubOptions(), [story, event, place, reconnect])).toEqual([true, true, false, false]);

  const n = await createNeighbourhood(t.ctx.db);
  const other: ContentChange = { subject: 'place:8', paths: [], keys: placeKeys({ id: 8, typeSlug: 'bars', neighbourhoodId: n + 1 }) };
  const own: ContentChange = { subject: 'place:9', paths: [], keys: placeKeys({ id: 9, typeSlug: 'bars', neighbourhoodId: n }) };
  expect(await hitsAfter('neighbourhood-boundaries', () => listings.neighbourhoodBoundary(n), [story, other, own, reconnect])).toEqual([true, true, false, false]);
});

test('the city map goes with a change naming a neighbourhood, not with a story', async () => {
  const read = () => request(t.app).get('/neighbourhoods/').expect(200);
  expect(await hitsAfter('city-map', read, [story, event, place, reconnect])).toEqual([true, true, false, false]);
});
