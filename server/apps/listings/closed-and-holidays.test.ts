import moment from 'moment-timezone';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../app';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createListing, createListingType } from '../../testing/fixtures';
import { saveListingHours } from './hours-queries';
import { listingPath } from './serialize';
import type { PlaceHours } from '../../../shared/place-hours';

// The places desk's gaps (issue 39): the hub's no-JavaScript "Include closed places" box
// (closed=include), a closed place's page and JSON-LD without opening hours, and the place
// page's "Holiday hours may differ" note, at a clock the test sets.

const ZONE = 'Canada/Eastern';
const at = (local: string) => moment.tz(local, 'YYYY-MM-DD HH:mm', ZONE).toDate();
const ALL = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const everyDay = (opens: string, closes: string) => Object.fromEntries(ALL.map((d) => [d, [{ opens, closes }]]));

const PLACES: Record<string, { hours: PlaceHours | null; closedOn?: string }> = {
  'Open Oven': { hours: { weekly: everyDay('09:00', '22:00'), holidays: 'usual' } },
  'Gone Grill': { hours: { weekly: everyDay('09:00', '22:00'), holidays: 'usual' }, closedOn: '2026-11-20' },
  'Soon Shut Deli': { hours: { weekly: everyDay('09:00', '22:00'), holidays: 'usual' }, closedOn: '2027-01-15' },
  'Holiday Shut Bistro': { hours: { weekly: everyDay('09:00', '22:00'), holidays: 'closed' } },
  'Unknown Hours Cafe': { hours: null },
};

const jsonLdOf = (html: string) => JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]);

describe('closed places in the hub, their page, and holiday notes', () => {
  let t: TestContext;
  const ids: Record<string, number> = {};
  const appAt = (local: string): Express => createApp({ ...t.ctx, now: () => at(local) }, { watchManifest: false });
  const page = async (name: string, local: string) => {
    const l = await t.ctx.db('listings').where('id', ids[name]).first('id', 'slug');
    return request(appAt(local)).get(listingPath({ ...l, type_slug: 'restaurants' })).expect(200);
  };

  beforeAll(async () => {
    t = await createTestContext();
    const type = await createListingType(t.ctx.db, { name: 'Restaurants', slug: 'restaurants' });
    for (const [name, p] of Object.entries(PLACES)) {
      ids[name] = await createListing(t.ctx.db, { name, type_id: type });
      await saveListingHours(t.ctx.db, ids[name], p.hours);
      if (p.closedOn) await t.ctx.db('listings').where('id', ids[name]).update({ closed_on: p.closedOn, closed_note: 'The owners retired.' });
    }
  });
  afterAll(() => t.close());

  describe('the hub’s "Include closed places" box', () => {
    test('unchecked by default: a closed place is left out, one closing ahead stays with its badge', async () => {
      const res = await request(appAt('2026-11-30 12:00')).get('/restaurants/').expect(200);
      expect(res.text).toMatch(/<input type="checkbox" name="closed" value="include">\s*Include closed places/);
      expect(res.text).toContain('Open Oven');
      expect(res.text).not.toContain('Gone Grill');
      expect(res.text).toContain('<span class="closed-badge" data-closed>Closing Jan 15</span>');
      expect(res.text).toContain('>4 found<');
    });

    test('closed=include lists the closed place with its "Closed" badge, and the box is checked back', async () => {
      const res = await request(appAt('2026-11-30 12:00')).get('/restaurants/?closed=include').expect(200);
      expect(res.text).toMatch(/<input type="checkbox" name="closed" value="include" checked>\s*Include closed places/);
      expect(res.text).toContain('>5 found<');
      const card = res.text.slice(res.text.indexOf('Gone Grill') - 600, res.text.indexOf('Gone Grill') + 600);
      expect(card).toContain('<span class="closed-badge" data-closed>Closed</span>');
      // The island starts with the same choice, and its next pages ask the API for the same.
      expect(res.text).toContain('"includeClosed":true');
    });

    test('closed=exclude is the default; any other value is a 400 naming closed', async () => {
      const res = await request(appAt('2026-11-30 12:00')).get('/restaurants/?closed=exclude').expect(200);
      expect(res.text).not.toContain('Gone Grill');
      expect(res.text).toMatch(/<input type="checkbox" name="closed" value="include">/);
      const bad = await request(appAt('2026-11-30 12:00')).get('/restaurants/?closed=sometimes').expect(400);
      expect(bad.text).toContain('closed');
    });

    test('the sort tabs keep closed=include', async () => {
      const res = await request(appAt('2026-11-30 12:00')).get('/restaurants/?closed=include').expect(200);
      expect(res.text).toMatch(/href="\/restaurants\/\?closed=include&amp;ordering=-rating"/);
    });

    test('the API and the hub page agree', async () => {
      const api = await request(appAt('2026-11-30 12:00')).get('/api/v2/listings/?type=restaurants&closed=include').expect(200);
      expect(api.body.count).toBe(5);
      expect(api.body.results.find((r: { name: string }) => r.name === 'Gone Grill').closed_on).toBe('2026-11-20');
    });
  });

  describe('a closed place’s page', () => {
    test('no opening hours in its JSON-LD, no open state on its page', async () => {
      const res = await page('Gone Grill', '2026-11-30 12:00');
      const ld = jsonLdOf(res.text);
      expect(ld.name).toBe('Gone Grill');
      expect(ld).not.toHaveProperty('openingHoursSpecification');
      expect(res.text).not.toContain('openingHoursSpecification');
      expect(res.text).not.toContain('Open now');
      expect(res.text).not.toContain('Closes at');
      expect(res.text).toContain('Closed since Nov 20, 2026');
    });

    test('a place closing on a day ahead keeps its hours until then', async () => {
      const res = await page('Soon Shut Deli', '2026-11-30 12:00');
      expect(jsonLdOf(res.text).openingHoursSpecification).toContainEqual({ '@type': 'OpeningHoursSpecification', dayOfWeek: 'https://schema.org/Monday', opens: '09:00', closes: '22:00' });
      expect(res.text).toContain('Open now · Closes at 10 pm');
      expect(res.text).toContain('Closing for good on Jan 15, 2027.');
      const after = await page('Soon Shut Deli', '2027-01-15 12:00');
      expect(jsonLdOf(after.text)).not.toHaveProperty('openingHoursSpecification');
      expect(after.text).not.toContain('Open now');
    });
  });

  describe('"Holiday hours may differ"', () => {
    test('a holiday within the week and usual hours: the note names it and its day', async () => {
      const res = await page('Open Oven', '2026-12-20 12:00');
      expect(res.text).toContain('<p class="hours-box__closure" data-holiday-notice>Holiday hours may differ: Christmas Day, Fri Dec 25; Boxing Day, Sat Dec 26</p>');
      expect(res.text).toContain('Usual hours on public holidays.');
    });

    test('no holiday within the week: no note', async () => {
      const res = await page('Open Oven', '2026-12-10 12:00');
      expect(res.text).not.toContain('data-holiday-notice');
      expect(res.text).not.toContain('Holiday hours may differ');
    });

    test('a place that said what it does on holidays, or whose hours are unknown, or that closed: no note', async () => {
      for (const name of ['Holiday Shut Bistro', 'Unknown Hours Cafe', 'Gone Grill']) {
        const res = await page(name, '2026-12-20 12:00');
        expect(res.text).not.toContain('Holiday hours may differ');
      }
    });
  });
});
