import moment from 'moment-timezone';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../app';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createListing, createListingType } from '../../testing/fixtures';
import { saveListingHours } from './hours-queries';
import { listingPath } from './serialize';
import type { PlaceHours } from '../../../shared/place-hours';

// Place hours (issue 39): the Open now filter of the listing API and of the hub's no-JavaScript
// form, computed in SQL at a clock the test sets, and the place page's hours and JSON-LD.

const ZONE = 'Canada/Eastern';
const at = (local: string) => moment.tz(local, 'YYYY-MM-DD HH:mm', ZONE).toDate();
const days = (list: string[], opens: string, closes: string) => Object.fromEntries(list.map((d) => [d, [{ opens, closes }]]));
const ALL = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

const HOURS: Record<string, PlaceHours | null> = {
  'Night Bar': { weekly: days(ALL.filter((d) => d !== 'mon'), '18:00', '02:00'), holidays: 'usual' },
  'Split Bistro': { weekly: { ...days(ALL, '11:30', '14:30'), fri: [{ opens: '11:30', closes: '14:30' }, { opens: '17:00', closes: '22:00' }] }, holidays: 'closed' },
  'Holiday Diner': { weekly: days(ALL, '08:00', '20:00'), holidays: 'hours', holidayRanges: [{ opens: '10:00', closes: '14:00' }] },
  'Shut Cafe': { weekly: days(ALL, '07:00', '23:59'), holidays: 'usual', closure: { from: '2026-11-20', until: '2026-12-03', note: 'Renovations' } },
  'Mystery Grill': null,
};

describe('Open now', () => {
  let t: TestContext;
  const ids: Record<string, number> = {};
  /** The app with its clock at a Toronto wall-clock time. */
  const appAt = (local: string): Express => createApp({ ...t.ctx, now: () => at(local) }, { watchManifest: false });
  const openNames = async (local: string, extra = '') => {
    const res = await request(appAt(local)).get(`/api/v2/listings/?type=restaurants&open_now=true&ordering=name${extra}`).expect(200);
    return (res.body.results as Array<{ name: string }>).map((r) => r.name);
  };

  beforeAll(async () => {
    t = await createTestContext();
    const type = await createListingType(t.ctx.db, { name: 'Restaurants', slug: 'restaurants' });
    for (const [name, hours] of Object.entries(HOURS)) {
      ids[name] = await createListing(t.ctx.db, { name, type_id: type });
      await saveListingHours(t.ctx.db, ids[name], hours);
    }
  });
  afterAll(() => t.close());

  test('a Friday evening: the places open at that minute, never one whose hours are unknown', async () => {
    expect(await openNames('2026-11-27 18:30')).toEqual(['Holiday Diner', 'Night Bar', 'Split Bistro']);
    expect(await openNames('2026-11-27 15:00')).toEqual(['Holiday Diner']);
  });

  test('past midnight: Friday night’s range is open early Saturday', async () => {
    expect(await openNames('2026-11-28 01:30')).toEqual(['Night Bar']);
    expect(await openNames('2026-11-28 02:00')).toEqual([]);
  });

  test('a temporary closure ends on its last day', async () => {
    expect(await openNames('2026-12-03 12:00')).toEqual(['Holiday Diner', 'Split Bistro']);
    expect(await openNames('2026-12-04 12:00')).toEqual(['Holiday Diner', 'Shut Cafe', 'Split Bistro']);
  });

  test('Christmas Day: closed for holidays, holiday hours, usual hours', async () => {
    // Christmas 2026 is a Friday: the bistro keeps it, the diner has holiday hours only, the bar
    // and the cafe (reopened) their usual hours.
    expect(await openNames('2026-12-25 13:00')).toEqual(['Holiday Diner', 'Shut Cafe']);
    expect(await openNames('2026-12-25 18:30')).toEqual(['Night Bar', 'Shut Cafe']);
  });

  test('open_now=false is no filter; the count follows the filter', async () => {
    const all = await request(appAt('2026-11-28 01:30')).get('/api/v2/listings/?type=restaurants&open_now=false').expect(200);
    expect(all.body.count).toBe(5);
    const open = await request(appAt('2026-11-28 01:30')).get('/api/v2/listings/?type=restaurants&open_now=1').expect(200);
    expect(open.body.count).toBe(1);
  });

  test('a bad value is a 400 naming open_now', async () => {
    const res = await request(t.app).get('/api/v2/listings/?open_now=sometimes').expect(400);
    expect(Object.keys(res.body)).toContain('open_now');
  });

  test('the hub’s no-JavaScript form: the Open now box, checked, and only open places', async () => {
    const res = await request(appAt('2026-11-28 01:30')).get('/restaurants/?openNow=true').expect(200);
    expect(res.text).toMatch(/<input type="checkbox" name="openNow" value="true" checked>/);
    expect(res.text).toContain('Night Bar');
    expect(res.text).not.toContain('Split Bistro');
    const plain = await request(appAt('2026-11-28 01:30')).get('/restaurants/').expect(200);
    expect(plain.text).toMatch(/<input type="checkbox" name="openNow" value="true">/);
    expect(plain.text).toContain('Split Bistro');
  });

  test('the place page: the open state as of the minute, the week with several ranges, JSON-LD past midnight and closures', async () => {
    const page = async (name: string, local: string) => {
      const l = await t.ctx.db('listings').where('id', ids[name]).first('id', 'slug');
      return request(appAt(local)).get(listingPath({ ...l, type_slug: 'restaurants' })).expect(200);
    };
    const bar = await page('Night Bar', '2026-11-27 23:05');
    expect(bar.text).toContain('data-open-state="open"><strong>Open now · Closes at 2 am</strong>');
    expect(bar.text).toContain('>11:05 pm</time>');
    expect(bar.text).toContain('<th scope="row">Monday</th><td>Closed</td>');
    const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(bar.text)![1]);
    expect(ld.openingHoursSpecification).toContainEqual({ '@type': 'OpeningHoursSpecification', dayOfWeek: 'https://schema.org/Friday', opens: '18:00', closes: '02:00' });

    const bistro = await page('Split Bistro', '2026-11-27 15:00');
    expect(bistro.text).toContain('Closed · Opens at 5 pm');
    expect(bistro.text).toContain('<th scope="row">Friday</th><td>11:30 am – 2:30 pm, 5 pm – 10 pm</td>');
    expect(bistro.text).toContain('Closed on Ontario public holidays.');
    const bistroLd = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(bistro.text)![1]);
    expect(bistroLd.openingHoursSpecification).toContainEqual({ '@type': 'OpeningHoursSpecification', validFrom: '2026-12-25', validThrough: '2026-12-25', opens: '00:00', closes: '00:00' });

    const shut = await page('Shut Cafe', '2026-11-29 12:00');
    expect(shut.text).toContain('Temporarily closed · Reopens Fri, Dec 4');
    expect(shut.text).toContain('Temporarily closed from Nov 20 to Dec 3 (Renovations).');
    const shutLd = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(shut.text)![1]);
    expect(shutLd.openingHoursSpecification).toContainEqual({ '@type': 'OpeningHoursSpecification', validFrom: '2026-11-20', validThrough: '2026-12-03', opens: '00:00', closes: '00:00' });

    const mystery = await page('Mystery Grill', '2026-11-29 12:00');
    expect(mystery.text).toContain('data-open-state="unknown">Hours not known');
    expect(mystery.text).not.toContain('openingHoursSpecification');
  });
});
