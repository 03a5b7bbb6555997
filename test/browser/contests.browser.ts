import type { Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { expectReadablePage, screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createContest } from '../../server/testing/fixtures';
import { createMember, memberSessionCookie } from '../../server/testing/test-app';

// Contest entry and the winner draw in a real browser (build the islands first): a guest is
// sent from the contest page's form to log in and comes back to the form; a member enters with
// JavaScript (the form posts at once) and another without it (the private entry page sends
// it); a wrong answer is shown on its field; then staff draw the winner once the contest closes.

const PASSWORD = 'maple-streetcar-42';
const DAY = 86_400_000;
const viewports = [['375', VIEWPORTS.mobile], ['1280', VIEWPORTS.desktop]] as const;

describeInBrowser('contest entry and the draw in the browser', () => {
  let b: BrowserApp;
  let contestId: number;
  let name: string;
  const errors: string[] = [];

  beforeAll(async () => {
    b = await startBrowserApp();
    contestId = await createContest(b.t.ctx.db, {
      title: 'Win dinner for two at Pizzeria Libretto',
      prize: 'A $150 gift card for dinner for two.',
      skill_question: '7 × 6 + 8 = ?',
      skill_answer: 50,
      start_date: new Date(Date.now() - DAY),
      end_date: new Date(Date.now() + 7 * DAY),
    });
    name = (await b.t.ctx.db('contests').where({ id: contestId }).first('name')).name;
    await b.t.ctx.db('contests').where({ id: contestId }).update({ rules: 'Open to residents of Ontario who are 18 or older. One entry per member.' });
  });
  afterAll(async () => {
    await b?.close();
  });

  async function pageFor(viewport: { width: number; height: number }, opts: { memberId?: number; javaScript?: boolean } = {}): Promise<Page> {
    const context = await b.browser.newContext({ viewport, javaScriptEnabled: opts.javaScript ?? true });
    if (opts.memberId) {
      const [cookieName, value] = (await memberSessionCookie(b.t, { id: opts.memberId })).split('=');
      await context.addCookies([{ name: cookieName, value, url: b.baseUrl }]);
    }
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => errors.push(e.message));
    return page;
  }

  const entryOf = async (profileId: number) => b.t.ctx.db('contest_entries').where({ contest_id: contestId, profile_id: profileId }).first('skill_answer');

  test.each(viewports)('at %s px a guest is sent to log in from the form and comes back to it; a wrong answer is shown on its field; the right one enters', async (width, viewport) => {
    const member = await createMember(b.t.ctx, { email: `guest-${width}@example.com`, password: PASSWORD });
    const page = await pageFor(viewport);
    await page.goto(`${b.baseUrl}/contests/${name}/`);
    const form = page.locator('[data-contest-entry-form]');
    await form.getByLabel(/Skill-testing question: 7 × 6 \+ 8 = \?/).waitFor();
    await expectReadablePage(page, `contest ${width}`);
    await screenshot(page, `contest-page-${width}`);
    await form.getByLabel(/Skill-testing question/).fill('50');
    await Promise.all([page.waitForURL(/\/accounts\/login\?next=/), form.getByRole('button', { name: 'Enter' }).click()]);
    await page.locator('#login-email').fill(member.email);
    await page.locator('#login-password').fill(PASSWORD);
    await Promise.all([page.waitForURL(`${b.baseUrl}/contests/${name}/enter/`), page.locator('form[action="/accounts/login"] button[type=submit]').click()]);

    const answer = page.getByLabel(/Skill-testing question/);
    await answer.fill('48');
    await page.getByRole('button', { name: 'Send my entry' }).click();
    await page.locator('#skill_answer-error').getByText('That is not the right answer').waitFor();
    expect(await answer.getAttribute('aria-invalid')).toBe('true');
    expect(await entryOf(member.id)).toBeUndefined();
    await expectReadablePage(page, `entry error ${width}`);
    await screenshot(page, `contest-entry-error-${width}`);

    await page.getByLabel(/Skill-testing question/).fill('50');
    await Promise.all([page.waitForURL(`${b.baseUrl}/contests/${name}/enter/`), page.getByRole('button', { name: 'Send my entry' }).click()]);
    await page.getByText('You’re entered').waitFor();
    expect(await entryOf(member.id)).toEqual({ skill_answer: 50 });
    await expectReadablePage(page, `entered ${width}`);
    await screenshot(page, `contest-entered-${width}`);
    await page.context().close();
  });

  test.each(viewports)('at %s px a member enters from the contest page with JavaScript in one step, and without it through the entry page', async (width, viewport) => {
    const withJs = await createMember(b.t.ctx);
    const page = await pageFor(viewport, { memberId: withJs.id });
    await page.goto(`${b.baseUrl}/contests/${name}/`);
    await page.locator('[data-contest-entry-form]').getByLabel(/Skill-testing question/).fill('50');
    await Promise.all([page.waitForURL(`${b.baseUrl}/contests/${name}/enter/`), page.locator('[data-contest-entry-form]').getByRole('button', { name: 'Enter' }).click()]);
    await page.getByText('You’re entered').waitFor();
    expect(await entryOf(withJs.id)).toEqual({ skill_answer: 50 });
    await page.context().close();

    const noJs = await createMember(b.t.ctx);
    const plain = await pageFor(viewport, { memberId: noJs.id, javaScript: false });
    await plain.goto(`${b.baseUrl}/contests/${name}/`);
    await plain.locator('[data-contest-entry-form]').getByLabel(/Skill-testing question/).fill('50');
    await Promise.all([plain.waitForURL(/\/enter\/\?skill_answer=50$/), plain.locator('[data-contest-entry-form]').getByRole('button', { name: 'Enter' }).click()]);
    expect(await plain.getByLabel(/Skill-testing question/).inputValue()).toBe('50');
    await screenshot(plain, `contest-entry-form-nojs-${width}`);
    await Promise.all([plain.waitForURL(`${b.baseUrl}/contests/${name}/enter/`), plain.getByRole('button', { name: 'Send my entry' }).click()]);
    await plain.getByText('You’re entered').waitFor();
    expect(await entryOf(noJs.id)).toEqual({ skill_answer: 50 });
    await plain.context().close();
  });

  test.each(viewports)('at %s px the form links to the official rules and odds', async (width, viewport) => {
    const page = await pageFor(viewport);
    await page.goto(`${b.baseUrl}/contests/${name}/`);
    await Promise.all([page.waitForURL(`${b.baseUrl}/contests/${name}/rules/`), page.locator('#enter').getByRole('link', { name: 'Official rules and odds' }).click()]);
    await page.getByText('No purchase necessary.').waitFor();
    await page.getByText(/the odds of winning depend on the number of eligible entries received/).waitFor();
    await expectReadablePage(page, `rules ${width}`);
    await screenshot(page, `contest-rules-${width}`);
    await page.context().close();
  });

  test.each(viewports)('at %s px staff draw a winner once the contest has closed', async (width, viewport) => {
    await b.t.ctx.db('contests').where({ id: contestId }).update({ end_date: new Date(Date.now() - 60_000), drawn_at: null, winner_entry_id: null });
    const staff = await createMember(b.t.ctx, { is_staff: true, full_name: `Staff ${width}` });
    const page = await pageFor(viewport, { memberId: staff.id });
    await page.goto(`${b.baseUrl}/staff/contests/`);
    await expectReadablePage(page, `staff list ${width}`);
    await screenshot(page, `staff-contests-${width}`);
    await Promise.all([page.waitForURL(`${b.baseUrl}/staff/contests/${contestId}/`), page.getByRole('link', { name: 'Win dinner for two at Pizzeria Libretto' }).click()]);
    // Two members per viewport entered with the form above, and one guest who logged in: six.
    expect(await page.locator('.staff-table tbody tr').count()).toBe(6);
    expect(await page.locator('.staff-facts').textContent()).toContain('6 (6 valid)');
    await Promise.all([page.waitForURL(/\?drawn=1&mail=sent$/), page.getByRole('button', { name: 'Draw a winner' }).click()]);
    await page.getByText('Winner drawn:').waitFor();
    const winner = await b.t.ctx.db('contests as c').join('contest_entries as e', 'e.id', 'c.winner_entry_id').where('c.id', contestId).first('e.id');
    expect(await page.locator('[data-winner]').textContent()).toContain(`entry #${winner.id}`);
    const log = await b.t.ctx.db('staff_audit_log').where({ subject_type: 'contest', subject_id: contestId, staff_id: staff.id }).select('action');
    expect(log).toEqual([{ action: 'contest.draw' }]);
    await expectReadablePage(page, `staff draw ${width}`);
    await screenshot(page, `staff-contest-drawn-${width}`);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
