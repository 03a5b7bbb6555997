import type { Locator, Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { MIN_SOLVE_MS } from '../../server/apps/contact/captcha';

// The contact form (spec 2 §4) in a real browser: with JavaScript every field goes pristine ->
// dirty -> clean or invalid, with the error beside it before anything is sent, and all are
// pristine again after the message is sent in place; without JavaScript the server's errors
// stand beside the fields and the thank-you page follows a good post.

const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

/** Answers the captcha as a person would: from its question. */
async function answerCaptcha(page: Page): Promise<void> {
  const [, a, b] = /What is (\w+) plus (\w+)\?/.exec((await page.locator('.captcha__image').getAttribute('alt'))!)!;
  await page.locator('#contact-captcha').fill(String(WORDS.indexOf(a) + WORDS.indexOf(b)));
}

const state = (field: Locator) => field.getAttribute('data-state');

describeInBrowser('contact form in the browser', () => {
  let b: BrowserApp;
  // A captcha answered quicker than a person could is refused: the server's clock runs ahead
  // once the reader has had the question, as if they took a few seconds.
  let clockOffset = 0;
  const readerTakesTheirTime = () => {
    clockOffset += MIN_SOLVE_MS + 1000;
  };

  beforeAll(async () => {
    b = await startBrowserApp();
    b.t.ctx.now = () => new Date(Date.now() + clockOffset);
  });
  afterAll(async () => {
    await b?.close();
  });
  const messagesFrom = async (where: Record<string, string> = {}) => Number((await b.t.ctx.db('contact_messages').where(where).count({ n: '*' }).first())?.n);

  for (const viewport of [VIEWPORTS.mobile, VIEWPORTS.desktop]) {
    test(`at ${viewport.width} px, fields go pristine -> dirty -> clean or invalid before sending, and pristine after success`, async () => {
      clockOffset = 0;
      const context = await b.browser.newContext({ viewport });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const pageErrors: string[] = [];
      page.on('pageerror', (e) => pageErrors.push(e.message));
      await page.goto(`${b.baseUrl}/contact/`);
      const name = page.locator('#contact-name');
      const email = page.locator('#contact-email');
      const confirm = page.locator('#contact-confirm_email');
      const comment = page.locator('#contact-comment');
      const captcha = page.locator('#contact-captcha');
      const errorOf = (field: string) => page.locator(`#${field}-error`);
      await page.locator('[data-contact-form] [data-state]').first().waitFor();
      for (const field of [name, email, confirm, comment, captcha]) expect(await state(field)).toBe('pristine');

      // Leaving a field untouched says nothing; typing makes it dirty, leaving it checks it.
      await name.focus();
      await email.focus();
      expect(await state(name)).toBe('pristine');
      await name.fill('Jo Reader');
      expect(await state(name)).toBe('dirty');
      await email.focus();
      expect(await state(name)).toBe('clean');
      await name.fill('');
      await email.focus();
      expect(await state(name)).toBe('invalid');
      expect(await errorOf('name').textContent()).toBe('This field is required.');
      expect(await name.getAttribute('aria-invalid')).toBe('true');

      // Email format, then the confirmation match.
      await email.fill('jo@example');
      await confirm.focus();
      expect(await state(email)).toBe('invalid');
      expect(await errorOf('email').textContent()).toBe('Enter a valid email address.');
      await email.fill('jo@example.com'); // an invalid field is checked as it is typed in
      expect(await state(email)).toBe('clean');
      expect(await errorOf('email').isVisible()).toBe(false);
      await confirm.fill('jo@example.org');
      await comment.focus();
      expect(await state(confirm)).toBe('invalid');
      expect(await errorOf('confirm_email').textContent()).toBe('Your email addresses don’t match.');
      await screenshot(page, `contact-form-invalid-${viewport.width}`);
      expect(await seriousA11yViolations(page)).toEqual([]);

      // Sending checks every field, pristine ones too, and sends nothing while one is wrong.
      await page.getByRole('button', { name: 'Send' }).click();
      expect(await state(comment)).toBe('invalid');
      expect(await state(captcha)).toBe('invalid');
      expect(await errorOf('comment').textContent()).toBe('This field is required.');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('contact-name');
      expect(await messagesFrom()).toBe(0);

      await name.fill('Jo Reader');
      expect(await state(name)).toBe('clean');
      await confirm.fill('JO@example.com');
      expect(await state(confirm)).toBe('clean');
      await comment.fill('Love the streetcar coverage.');
      // The server's own refusal (a wrong answer) comes back beside the field, with a new question.
      const key = await page.locator('input[name=captcha_key]').inputValue();
      await captcha.fill('99');
      readerTakesTheirTime();
      await page.getByRole('button', { name: 'Send' }).click();
      await errorOf('captcha').getByText('That answer is not right. Please try the new question.').waitFor();
      expect(await state(captcha)).toBe('invalid');
      await page.waitForFunction((old) => (document.querySelector('input[name=captcha_key]') as HTMLInputElement).value !== old, key);
      expect(await captcha.inputValue()).toBe('');
      expect(await page.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
      await answerCaptcha(page);
      expect(await state(captcha)).toBe('clean');
      readerTakesTheirTime();
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByRole('status').filter({ hasText: 'Thanks for dropping us a line.' }).waitFor();
      expect(await page.getByRole('button', { name: 'Send' }).count()).toBe(0);
      for (const field of [name, email, confirm, comment, captcha]) {
        expect(await state(field)).toBe('pristine');
        expect(await field.inputValue()).toBe('');
        expect(await field.getAttribute('aria-invalid')).toBeNull();
      }
      expect(await page.locator('[data-field-error]:visible').count()).toBe(0);
      expect(await messagesFrom({ name: 'Jo Reader', email: 'jo@example.com' })).toBe(1);
      await screenshot(page, `contact-form-sent-${viewport.width}`);
      expect(pageErrors).toEqual([]);
      await b.t.ctx.db('contact_messages').del();
      await context.close();
    });

    test(`at ${viewport.width} px, without JavaScript the server's errors stand beside the fields and a good post is thanked`, async () => {
      clockOffset = 0;
      const context = await b.browser.newContext({ viewport, javaScriptEnabled: false });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${b.baseUrl}/contact/`);
      await page.locator('#contact-name').fill('No Script');
      await page.locator('#contact-email').fill('noscript@example.com');
      await page.locator('#contact-confirm_email').fill('other@example.com');
      await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Send' }).click()]);
      await page.locator('#confirm_email-error').getByText('Your email addresses don’t match.').waitFor();
      expect(await page.locator('#comment-error').textContent()).toBe('This field is required.');
      expect(await page.locator('#name-error').isVisible()).toBe(false);
      await screenshot(page, `contact-form-nojs-errors-${viewport.width}`);
      await page.locator('#contact-confirm_email').fill('noscript@example.com');
      await page.locator('#contact-comment').fill('Works without scripts.');
      await answerCaptcha(page);
      readerTakesTheirTime();
      await Promise.all([page.waitForURL(/\/contact\/\?sent=1/), page.getByRole('button', { name: 'Send' }).click()]);
      await page.getByText('Thanks for dropping us a line.').waitFor();
      expect(await messagesFrom({ email: 'noscript@example.com' })).toBe(1);
      await b.t.ctx.db('contact_messages').del();
      await context.close();
    });
  }
});
