import { describeInBrowser } from './chromium';
import { expectReadableAtBothWidths, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createArticle, createListing, createListingType } from '../../server/testing/fixtures';

// Every editorial page type at a phone (375 px) and a desktop (1280 px) width: a screenshot
// for review (artifacts/screenshots/, kept by CI) and axe-core with no serious or critical
// violations. The app runs in-process over its own test database with a few fixtures.

describeInBrowser('editorial pages in a browser', () => {
  let b: BrowserApp;
  const paths: Record<string, string> = {};

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    for (let i = 0; i < 16; i += 1) {
      await createArticle(db, { name: `Toronto story number ${i} about the city and its people`, excerpt: 'A short summary of the story.', is_featured: i % 5 === 0, date_published: new Date(Date.UTC(2026, 0, 1 + i)) });
    }
    const articleId = await createArticle(db, { name: 'The TTC is adding late-night streetcar service this summer', excerpt: 'What changes and when.', body: 'First paragraph of the story.\n\nSecond paragraph with more detail.\n\nThird paragraph.' });
    paths.article = (await db('articles').where({ id: articleId }).first('path')).path;
    const typeId = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    const listingId = await createListing(db, { name: 'Pizza Palace', type_id: typeId, rating: 4.5 });
    const showId = await createArticle(db, { name: 'The best pizza in Toronto', type_slug: 'best-of', is_slideshow: true, is_featured: true });
    paths.slideshow = (await db('articles').where({ id: showId }).first('path')).path;
    await db('article_slides').insert([
      { article_id: showId, position: 1, title: 'Pizza Palace', caption: 'Thin crust, wood oven.', listing_id: listingId },
      { article_id: showId, position: 2, title: 'Slice Shop', caption: 'By the slice.' },
    ]);
    const [list] = await db('best_of_lists').insert({ title: 'The best pizza in Toronto', slug: 'best-pizza', intro: 'Our favourite pies.' }).returning('id');
    await db('best_of_list_items').insert({ list_id: list.id ?? list, listing_id: listingId, position: 1, blurb: 'The classic.' });
    await createArticle(db, { name: 'A guide to legal cannabis stores', type_slug: 'cannabis' });
  }, 60_000);
  afterAll(() => b?.close());

  const pages: Array<[string, () => string]> = [
    ['home', () => '/'],
    ['news-hub', () => '/news/'], // by 48: its page 2 is in sections.browser.ts
    ['article', () => paths.article],
    ['article-slideshow', () => `${paths.slideshow}slideshow/`],
    ['best-of', () => '/best-of/'],
    ['best-of-list', () => '/best-of/best-pizza/'],
    ['search', () => '/search?q=story'],
    ['search-no-results', () => '/search?q=zzzzzz'],
    ['newsletters', () => '/newsletters/'],
    ['contact', () => '/contact/'],
    ['contact-advertise', () => '/contact/?category=advertise'],
    ['archives', () => '/archives/'],
    ['archive-month', () => '/archives/2026/01/'],
    ['about', () => '/about'],
    ['jobs', () => '/jobs'],
    ['privacy', () => '/privacy/'],
    ['terms', () => '/termsofservice/'],
    ['age-gate', () => '/cannabis/'],
    ['not-found', () => '/no/such/page/'],
  ];

  test.each(pages)('%s: screenshots at 375 and 1280 px, no serious or critical axe violations', async (name, path) => {
    await expectReadableAtBothWidths(b, path(), `editorial-${name}`, { status: name === 'not-found' ? 404 : 200 });
  }, 60_000);

  test('the age gate works as a form: accepting shows the section, declining goes home', async () => {
    const context = await b.browser.newContext({ viewport: VIEWPORTS.mobile });
    const page = await context.newPage();
    await page.goto(`${b.baseUrl}/cannabis/`);
    await page.getByLabel('Remember me for 30 days').check();
    await page.getByRole('button', { name: /Yes, I am 19 or older/ }).click();
    await page.waitForURL(`${b.baseUrl}/cannabis/`);
    expect(await page.locator('main').textContent()).toContain('A guide to legal cannabis stores');
    const cookie = (await context.cookies()).find((c) => c.name === 'is_user_over_18');
    expect(cookie?.value).toBe('true');
    await context.clearCookies();
    await page.goto(`${b.baseUrl}/cannabis/`);
    await page.getByRole('button', { name: /No, take me home/ }).click();
    await page.waitForURL(`${b.baseUrl}/`);
    await context.close();
  }, 30_000);

  test('the contact counter counts down and the business fields follow the subject', async () => {
    const context = await b.browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    await page.goto(`${b.baseUrl}/contact/`);
    await page.locator('#contact-comment').fill('Hello there');
    await expect(page.locator('[data-char-counter]').textContent()).resolves.toBe('589 characters remaining');
    expect(await page.locator('#contact-business_name').isVisible()).toBe(false);
    await page.locator('#contact-question_category').selectOption('advertise');
    expect(await page.locator('#contact-business_name').isVisible()).toBe(true);
    await page.locator('#contact-email').fill('a@example.com');
    await page.locator('#contact-confirm_email').fill('b@example.com');
    await page.locator('#contact-name').focus();
    expect(await page.locator('#confirm_email-error').getByText('Your email addresses don’t match.').isVisible()).toBe(true);
    await context.close();
  }, 30_000);

  test('the footer newsletter signs up in place with JavaScript', async () => {
    const context = await b.browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    await page.goto(`${b.baseUrl}/about`);
    await page.locator('#footer-newsletter-email').fill('browser@example.com');
    await page.locator('form[data-newsletter-form]').first().getByRole('button', { name: 'Sign up' }).click();
    await page.locator('.site-footer [data-newsletter-success]').waitFor({ state: 'visible' });
    expect(await b.t.ctx.db('guest_newsletter_subscriptions').where({ email: 'browser@example.com' }).first()).toMatchObject({ news: true });
    await context.close();
  }, 30_000);
});
