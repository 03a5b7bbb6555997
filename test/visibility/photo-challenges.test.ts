import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../server/app';
import { createTestContext, type TestContext } from '../../server/testing/test-app';
import { currentIssue } from '../../server/apps/newsletters/newsletter-issue-queries';
import { pastChallenges } from '../../server/apps/photo-challenges/queries';

// The one rule for photo challenges (wherePhotoChallengeIsPublic in server/apps/photo-challenges/queries.ts):
// public once both date_published and start_date have come. An open and a closed challenge
// beside three not yet public (open but published tomorrow, published but starting tomorrow,
// closed but published tomorrow), through every reader: the hub (open, then past), a
// challenge's page, the past list's count and the Photo Challenges newsletter. Only the public
// ones may appear, until their time.
// It lives in test/, not in the app: the readers include newsletters, above the content apps,
// which an app's own tests may not import (server/apps/README.md).

const DAY = 86400_000;

describe('which photo challenges the public sees', () => {
  let t: TestContext;
  let publishAt: Date;
  const rows = (now: number) => ({
    open: { start: now - DAY, end: now + 7 * DAY, published: now - DAY },
    closed: { start: now - 20 * DAY, end: now - 10 * DAY, published: now - 20 * DAY },
    unpublished: { start: now - DAY, end: now + 7 * DAY, published: now + DAY },
    unstarted: { start: now + DAY, end: now + 8 * DAY, published: now - DAY },
    'closed-unpublished': { start: now - 20 * DAY, end: now - 10 * DAY, published: now + DAY },
  });
  type Which = keyof ReturnType<typeof rows>;
  const hidden: Which[] = ['unpublished', 'unstarted', 'closed-unpublished'];
  const path = (which: Which) => `/photo-challenges/wallaby-${which}/`;
  const shows = (text: string, which: Which) => text.includes(`Wallaby walk ${which}<`) || text.includes(path(which));

  beforeAll(async () => {
    t = await createTestContext();
    const now = Date.now();
    publishAt = new Date(now + DAY);
    for (const [which, r] of Object.entries(rows(now))) {
      await t.ctx.db('photo_challenges').insert({
        title: `Wallaby walk ${which}`, name: `wallaby-${which}`, hashtag: `wallaby${which.replace(/-/g, '')}`,
        start_date: new Date(r.start), end_date: new Date(r.end), date_published: new Date(r.published),
      });
    }
  });
  afterAll(() => t.close());

  test('the hub shows the open and the closed one and none of the others', async () => {
    const res = await request(t.app).get('/photo-challenges/');
    expect(res.status).toBe(200);
    expect(Object.fromEntries((Object.keys(rows(0)) as Which[]).map((w) => [w, shows(res.text, w)]))).toEqual({
      open: true, closed: true, unpublished: false, unstarted: false, 'closed-unpublished': false,
    });
  });

  test('their pages answer as if they did not exist, and the past count leaves them out', async () => {
    for (const which of ['open', 'closed'] as const) expect([which, (await request(t.app).get(path(which))).status]).toEqual([which, 200]);
    for (const which of hidden) expect([which, (await request(t.app).get(path(which))).status]).toEqual([which, 404]);
    expect((await pastChallenges(t.ctx.db, new Date(), { limit: 12, offset: 0 })).count).toBe(1);
  });

  test('the Photo Challenges newsletter carries only the open public one', async () => {
    expect((await currentIssue(t.ctx, 'photo_challenge_alerts'))?.items.map((i) => i.title)).toEqual(['Wallaby walk open']);
  });

  test('once their dates come, the readers show them', async () => {
    const at = new Date(publishAt.getTime() + 60_000);
    const later: Express = createApp({ ...t.ctx, now: () => at }, { watchManifest: false });
    const hub = (await request(later).get('/photo-challenges/')).text;
    for (const which of hidden) {
      expect([which, shows(hub, which), (await request(later).get(path(which))).status]).toEqual([which, true, 200]);
    }
    expect((await pastChallenges(t.ctx.db, at, { limit: 12, offset: 0 })).count).toBe(2);
    const issue = await currentIssue({ ...t.ctx, now: () => at }, 'photo_challenge_alerts');
    expect(issue?.items.map((i) => i.title).sort()).toEqual(['Wallaby walk open', 'Wallaby walk unpublished', 'Wallaby walk unstarted']);
  });
});
