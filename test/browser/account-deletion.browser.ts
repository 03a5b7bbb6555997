import { describeInBrowser } from './chromium';
import { expectReadablePage, logInAtPage, newPageIn, screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createMember } from '../../server/testing/test-app';
import { createListing, createPhoto } from '../../server/testing/fixtures';
import { unsubscribeUrl } from '../../server/apps/newsletters/newsletter-email';

// Delete my account and a newsletter's unsubscribe link in a real browser, at 375 and 1280 px,
// with no JavaScript needed by either: the form (a wrong password first), the closed-account
// page, the emailed undo link restoring the account; then an unsubscribe link opened with no
// session at all.

const PASSWORD = 'ferry-to-ward-island-7';

describeInBrowser('delete my account and unsubscribe, in the browser', () => {
  let b: BrowserApp;
  const errors: string[] = [];

  beforeAll(async () => {
    b = await startBrowserApp();
  });
  afterAll(async () => {
    await b?.close();
  });

  const newPage = (viewport: { width: number; height: number }) => newPageIn(b, viewport, errors);

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    const px = viewport.width;

    test(`${name}: a member deletes their account, is signed out, and the undo link restores it`, async () => {
      const email = `leaving-${px}@example.com`;
      const member = await createMember(b.t.ctx, { email, password: PASSWORD, full_name: `Leaving ${px}` });
      // A photo of theirs on a place: its page credits them, but not while the account is closed.
      const listing = await createListing(b.t.ctx.db);
      const photo = await createPhoto(b.t.ctx.db, { listing_id: listing, profile_id: member.id });
      const place = await b.t.ctx.db('listings as l').join('listing_types as t', 't.id', 'l.type_id').where('l.id', listing).first('l.slug', 't.slug as type_slug');
      const photoPage = `${b.baseUrl}/${place.type_slug}/${place.slug}-${listing}/photos/${photo}/`;
      // Each look in a browser of its own: the page is public, max-age=60, and a browser keeps it.
      const credited = async (shot?: string) => {
        const p = await newPage(viewport);
        await p.goto(photoPage);
        const seen = await p.getByText(`Photo by Leaving ${px}`).isVisible();
        if (shot) await screenshot(p, shot);
        await p.context().close();
        return seen;
      };
      expect(await credited()).toBe(true);
      const page = await newPage(viewport);
      await logInAtPage(page, b.baseUrl, '/accounts/delete/', member);
      await page.getByRole('heading', { name: 'Delete my account' }).waitFor();
      await expectReadablePage(page, `delete form ${px}`);
      await screenshot(page, `account-delete-form-${px}`);

      // A wrong password: the form again, the message under the field, the choice kept.
      await page.getByLabel('Keep them on the site without my name').check();
      await page.getByLabel('Your password').fill('not-my-password');
      await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Delete my account' }).click()]);
      await page.getByText('* Your password was entered incorrectly. Please enter it again.').waitFor();
      expect(await page.getByLabel('Keep them on the site without my name').isChecked()).toBe(true);
      await screenshot(page, `account-delete-wrong-password-${px}`);
      expect(await b.t.ctx.db('profiles').where({ id: member.id }).first('is_active')).toEqual({ is_active: true });

      const mails = b.t.mailer.sent.length;
      await page.getByLabel('Your password').fill(PASSWORD);
      await Promise.all([page.waitForURL(`${b.baseUrl}/accounts/delete/scheduled/`), page.getByRole('button', { name: 'Delete my account' }).click()]);
      await page.getByRole('heading', { name: 'Your account is closed' }).waitFor();
      await expectReadablePage(page, `closed ${px}`);
      await screenshot(page, `account-delete-closed-${px}`);
      expect(await b.t.ctx.db('profiles').where({ id: member.id }).first('is_active')).toEqual({ is_active: false });
      // Signed out: the member page sends this browser to log in.
      await page.goto(`${b.baseUrl}/accounts/delete/`);
      expect(new URL(page.url()).pathname).toBe('/accounts/login');
      expect(await credited(`account-delete-photo-uncredited-${px}`)).toBe(false);

      const mail = b.t.mailer.sent[mails];
      const undo = /http:\/\/\S+?\/accounts\/delete\/undo\/[A-Za-z0-9_-]{43}\//.exec(mail.text)![0];
      await page.goto(undo);
      await page.getByRole('heading', { name: 'Restore my account' }).waitFor();
      await screenshot(page, `account-delete-undo-${px}`);
      await page.getByRole('button', { name: 'Restore my account' }).click();
      await page.getByRole('heading', { name: 'Account restored' }).waitFor();
      await expectReadablePage(page, `restored ${px}`);
      await screenshot(page, `account-delete-restored-${px}`);
      expect(await b.t.ctx.db('profiles').where({ id: member.id }).first('is_active')).toEqual({ is_active: true });
      expect(await credited()).toBe(true);
      await page.context().close();
    });

    test(`${name}: an unsubscribe link works with no session, after one button`, async () => {
      const member = await createMember(b.t.ctx, { email: `reader-${px}@example.com` });
      await b.t.ctx.db('profiles').where({ id: member.id }).update({ settings_receive_newsletter_news: true, settings_receive_newsletter_events: true });
      const page = await newPage(viewport);
      await page.goto(unsubscribeUrl(b.t.config, { kind: 'member', id: member.id }, 'news'));
      await page.getByRole('heading', { name: 'Unsubscribe' }).waitFor();
      await page.getByText(`Stop sending Top Stories to r…@example.com?`).waitFor();
      await expectReadablePage(page, `unsubscribe ${px}`);
      await screenshot(page, `newsletter-unsubscribe-${px}`);
      expect(await b.t.ctx.db('profiles').where({ id: member.id }).first('settings_receive_newsletter_news')).toEqual({ settings_receive_newsletter_news: true });

      await page.getByRole('button', { name: 'Unsubscribe from Top Stories' }).click();
      await page.getByRole('heading', { name: "You're unsubscribed" }).waitFor();
      await expectReadablePage(page, `unsubscribed ${px}`);
      await screenshot(page, `newsletter-unsubscribed-${px}`);
      expect(await b.t.ctx.db('profiles').where({ id: member.id }).first('settings_receive_newsletter_news', 'settings_receive_newsletter_events')).toEqual({
        settings_receive_newsletter_news: false,
        settings_receive_newsletter_events: true,
      });
      await page.context().close();
    });
  }

  test('no script errors on these pages', () => {
    expect(errors).toEqual([]);
  });
});
