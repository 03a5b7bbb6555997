import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createArticle, createContest } from '../../testing/fixtures';
import { SHARE_WINDOWS, STICKY_OFFSETS } from '../../../shared/constants';

// Share links (plain links; share-popup.js opens the sized pop-ups) on contest and article
// pages, and the contest page's sticky aside with the spec's offsets.

describe('share links and the contest page aside', () => {
  let t: TestContext;
  let articlePath: string;
  beforeAll(async () => {
    t = await createTestContext();
    await createContest(t.ctx.db, { title: 'Win brunch & more' });
    const id = await createArticle(t.ctx.db, { name: 'Patios open "early" this year' });
    articlePath = (await t.ctx.db('articles').where({ id }).first('path')).path;
  });
  afterAll(() => t.close());

  test('a contest page has Facebook and X links sized for their pop-ups and an email link, all plain links', async () => {
    const contests = await request(t.app).get('/contests/');
    const path = /href="(\/contests\/[^"]+\/)"/.exec(contests.text)![1];
    const res = await request(t.app).get(path);
    expect(res.status).toBe(200);
    const url = encodeURIComponent(`http://localhost:3000${path}`);
    expect(res.text).toContain(`href="https://www.facebook.com/sharer/sharer.php?u=${url}" target="_blank" rel="noopener" data-share-window="${SHARE_WINDOWS.facebook.width}x${SHARE_WINDOWS.facebook.height}"`);
    expect(res.text).toContain(`href="https://x.com/intent/post?url=${url}&amp;text=Win%20brunch%20%26%20more" target="_blank" rel="noopener" data-share-window="${SHARE_WINDOWS.x.width}x${SHARE_WINDOWS.x.height}"`);
    expect(res.text).toContain(`href="mailto:?subject=Win%20brunch%20%26%20more&amp;body=${url}"`);
    expect(res.text).toContain('<script src="/static/js/share-popup.js" defer></script>');
  });

  test('the contest aside sticks 60 px down, 120 px on large screens', async () => {
    expect(STICKY_OFFSETS.contest).toEqual({ small: 60, large: 120 });
    const contests = await request(t.app).get('/contests/');
    const path = /href="(\/contests\/[^"]+\/)"/.exec(contests.text)![1];
    const res = await request(t.app).get(path);
    expect(res.text).toContain('style="--sticky-top: 60px; --sticky-top-large: 120px"');
    expect(res.text).toContain('<aside class="contest-aside" aria-label="Contest details">');
  });

  test('an article page has the share links too, its title encoded', async () => {
    const res = await request(t.app).get(articlePath);
    expect(res.status).toBe(200);
    expect(res.text).toContain('text=Patios%20open%20%22early%22%20this%20year');
    expect(res.text).toContain('data-share-window="670x340"');
  });
});
