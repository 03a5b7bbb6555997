import { createTestContext, type TestContext } from '../../testing/test-app';
import { createArticle } from '../../testing/fixtures';
import { currentIssue } from './newsletter-issue-queries';

// A newsletter issue carries what readers can already open: an article scheduled for later
// (dated in the future) waits for a later issue, as it does on every page of the site.

describe('the current issue of an article newsletter', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    await createArticle(t.ctx.db, { name: 'Brunch spots open today', type_slug: 'food', date_published: new Date(Date.now() - 3600_000) });
    await createArticle(t.ctx.db, { name: 'Embargoed brunch story', type_slug: 'food', date_published: new Date(Date.now() + 3600_000) });
  });
  afterAll(() => t.close());

  test.each(['foods', 'news'] as const)('%s leaves out an article scheduled for later, and carries it once its time comes', async (type) => {
    const titles = (await currentIssue(t.ctx, type))?.items.map((i) => i.title);
    expect(titles).toContain('Brunch spots open today');
    expect(titles).not.toContain('Embargoed brunch story');
    const later = await currentIssue({ ...t.ctx, now: () => new Date(Date.now() + 2 * 3600_000) }, type);
    expect(later?.items.map((i) => i.title)).toContain('Embargoed brunch story');
  });
});
