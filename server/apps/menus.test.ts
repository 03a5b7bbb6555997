import request from 'supertest';
import { createApp } from '../app';
import type { AppContext } from '../context';
import { createMember, createTestContext, memberAgent, type TestContext } from '../testing/test-app';
import { createArticle, createEvent, createListingType } from '../testing/fixtures';
import { appMenus } from '.';
import { articlesNavbarMenus } from './articles/navbar-menus';
import { listingsNavbarMenus } from './listings/navbar-menus';
import { staffAuditSection, staffQueueSections } from './staff/staff-menus';
import { contestsStaffSection } from './contests/pages';
import { adsStaffSection } from './ads/pages';
import { bestOfStaffSection } from './best-of-editing/pages';
import { placeSuggestionsStaffSection } from './place-suggestions/pages';
import { placesDeskStaffSection } from './places-desk/pages';
import { videosStaffSection } from './videos/pages';
import { newsroomStaffSection } from './newsroom/pages';
import { jobDeskStaffSection } from './job-desk/pages';
import { publishedEventsStaffSection } from './event-submissions/pages';

// The menus come from the apps that own what they link to: the registry assembles each app's
// entries in the documented order (server/apps/README.md "Who owns the menus") and hands them
// to the core through the context, which renders whatever it is handed.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

function initialState(html: string): Record<string, unknown> {
  return JSON.parse(/<script id="initial-state" type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1]);
}
const hrefsOf = (html: string, cls: string) => [...html.matchAll(new RegExp(`<a class="${cls}" href="([^"]+)"`, 'g'))].map((m) => m[1]);

const STAFF_ORDER = ['/staff/stories/', '/staff/events/', '/staff/photos/', '/staff/contact/', '/staff/accessibility/', '/staff/events/published/', '/staff/contests/', '/staff/ads/', '/staff/best-of/', '/staff/places/', '/staff/places/suggestions/', '/staff/videos/', '/staff/jobs/', '/staff/audit/'];

describe("the registry's menus", () => {
  test("the navbar: the articles app's two menus, then the listings app's listing types and place reviews", () => {
    expect(t.ctx.menus).toBe(appMenus);
    expect(t.ctx.menus.navbar).toEqual([...articlesNavbarMenus, ...listingsNavbarMenus]);
    t.ctx.menus.navbar.forEach((entry, i) => expect(entry).toBe([...articlesNavbarMenus, ...listingsNavbarMenus][i]));
    expect(t.ctx.menus.navbar.map((e) => e.menu)).toEqual(['latestArticles', 'recentReviews', 'listingTypes', 'recentReviews']);
    // RECENT REVIEWS' two entries (food stories, place reviews) are merged by date (issue 39).
    expect(t.ctx.menus.navbar.filter((e) => e.menu === 'recentReviews').every((e) => e.newest)).toBe(true);
  });

  test("the staff menu: the newsroom's stories, the staff app's queues and photos, contests, house ads, Best of, the job queue, then the audit log; the queues count what waits", () => {
    const expected = [newsroomStaffSection, ...staffQueueSections, publishedEventsStaffSection, contestsStaffSection, adsStaffSection, bestOfStaffSection, placesDeskStaffSection, placeSuggestionsStaffSection, videosStaffSection, jobDeskStaffSection, staffAuditSection];
    expect(t.ctx.menus.staff).toEqual(expected);
    t.ctx.menus.staff.forEach((s, i) => expect(s).toBe(expected[i]));
    expect(t.ctx.menus.staff.map((s) => s.href)).toEqual(STAFF_ORDER);
    expect(t.ctx.menus.staff.filter((s) => s.pending).map((s) => s.href)).toEqual(['/staff/events/', '/staff/contact/', '/staff/accessibility/', '/staff/places/suggestions/']);
  });

  test('every page renders the navbar menus the apps contribute', async () => {
    await createArticle(t.ctx.db, { name: 'Where to eat this week', type_slug: 'food' });
    await createListingType(t.ctx.db, { name: 'Bakeries', slug: 'bakeries' });
    const state = initialState((await request(createApp(t.ctx, { watchManifest: false })).get('/about')).text).navbar as { menus: Record<string, Array<{ name: string; path: string }>> };
    expect(Object.keys(state.menus)).toEqual(['latestArticles', 'recentReviews', 'listingTypes']);
    expect(state.menus.recentReviews.map((l) => l.name)).toContain('Where to eat this week');
    expect(state.menus.listingTypes).toContainEqual({ name: 'Bakeries', path: '/bakeries/' });
  });

  test("the core renders whatever the context hands it: another app's navbar link and staff queue show, with its badge", async () => {
    const ctx: AppContext = {
      ...t.ctx,
      menus: {
        navbar: [...t.ctx.menus.navbar, { menu: 'listingTypes', query: (db) => db.select(db.raw("'Ferries' as name")), link: (row) => ({ name: String(row.name), path: '/ferries/' }) }],
        staff: [...t.ctx.menus.staff, { href: '/staff/ferries/', title: 'Ferry reports', text: 'Waiting ferries.', pending: async () => 7 }],
      },
    };
    const app = createApp(ctx, { watchManifest: false });
    const navbar = initialState((await request(app).get('/about')).text).navbar as { menus: { listingTypes: Array<{ name: string; path: string }> } };
    expect(navbar.menus.listingTypes.at(-1)).toEqual({ name: 'Ferries', path: '/ferries/' });

    await createEvent(t.ctx.db, { status: 'pending' });
    const staff = await memberAgent({ app, ctx }, await createMember(t.ctx, { is_staff: true }));
    const landing = (await staff.get('/staff/')).text;
    expect(hrefsOf(landing, 'staff-sections__link')).toEqual([...STAFF_ORDER, '/staff/ferries/']);
    expect(landing).toContain('Ferry reports <span class="staff-count">7</span>');
    expect(landing).toMatch(/href="\/staff\/events\/">Pending events <span class="staff-count">1<\/span>/);
    // Every staff page, of every app, draws the same menu.
    for (const page of ['/staff/audit/', '/staff/contests/', '/staff/ads/', '/staff/best-of/']) {
      expect([page, hrefsOf((await staff.get(page)).text, 'tabs__link')]).toEqual([page, ['/staff/', ...STAFF_ORDER, '/staff/ferries/']]);
    }
  });
});
