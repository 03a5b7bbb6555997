import type { Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { expectReadablePage, logInAtPage, newPageIn, screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import sharp from 'sharp';
import { createEvent, createListing, createListingType, createPhoto } from '../../server/testing/fixtures';
import { createMember } from '../../server/testing/test-app';

// The staff queue in a real browser, at phone and desktop widths (needs `npm run build:islands`
// first): a staff member signs in, opens the pending events from the staff landing page,
// approves one event and rejects another with a note. Both decisions are saved, logged, and
// the member who sent each event is emailed.

const PASSWORD = 'harbourfront-editor-9';

describeInBrowser('staff moderation queue in the browser', () => {
  let b: BrowserApp;
  const errors: string[] = [];

  beforeAll(async () => {
    b = await startBrowserApp();
  });
  afterAll(async () => {
    await b?.close();
  });

  async function signIn(viewport: { width: number; height: number }, email: string): Promise<Page> {
    const page = await newPageIn(b, viewport, errors);
    // A guest is sent to the login page, and comes back to the staff area after signing in.
    await logInAtPage(page, b.baseUrl, '/staff/', { email, password: PASSWORD });
    return page;
  }

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    test(`at ${viewport.width} px a staff member approves one event and rejects another with a note`, async () => {
      const db = b.t.ctx.db;
      const staff = await createMember(b.t.ctx, { email: `editor-${name}@example.com`, password: PASSWORD, is_staff: true });
      const submitter = await createMember(b.t.ctx, { full_name: 'Pat Submitter', email: `pat-${name}@example.com` });
      const good = await createEvent(db, { title: `Lantern Walk at Harbourfront (${name})`, status: 'pending', submitted_by: submitter.id });
      const bad = await createEvent(db, { title: `Bus trip to Niagara Falls (${name})`, status: 'pending', submitted_by: submitter.id });
      const sent = b.t.mailer.sent.length;

      const page = await signIn(viewport, staff.email);
      await expectReadablePage(page, `staff landing ${name}`);
      await screenshot(page, `staff-landing-${viewport.width}`);
      await Promise.all([page.waitForURL(`${b.baseUrl}/staff/events/`), page.getByRole('link', { name: /^Pending events/ }).last().click()]);
      const goodCard = page.locator(`#event-${good}`);
      const badCard = page.locator(`#event-${bad}`);
      await goodCard.getByRole('heading', { name: `Lantern Walk at Harbourfront (${name})` }).waitFor();
      await badCard.getByText(submitter.email).waitFor();
      await expectReadablePage(page, `staff queue ${name}`);
      await screenshot(page, `staff-queue-${viewport.width}`);

      await Promise.all([page.waitForURL(/done=approved/), goodCard.getByRole('button', { name: 'Approve' }).click()]);
      await page.locator('[data-notice]').getByText(`“Lantern Walk at Harbourfront (${name})” is approved. The member has been emailed.`).waitFor();
      expect(await goodCard.count()).toBe(0);

      // Rejecting without a note is refused beside the note; the note then goes through.
      await Promise.all([page.waitForLoadState('load'), badCard.getByRole('button', { name: 'Reject' }).click()]);
      await badCard.getByText('Say why the event is rejected: the member receives this note.').waitFor();
      await badCard.getByLabel(/Note to the member/).fill('Niagara Falls is outside Toronto; we list events in the city only.');
      await screenshot(page, `staff-queue-reject-note-${viewport.width}`);
      await Promise.all([page.waitForURL(/done=rejected/), badCard.getByRole('button', { name: 'Reject' }).click()]);
      await page.locator('[data-notice]').getByText(`“Bus trip to Niagara Falls (${name})” is rejected. The member has been emailed.`).waitFor();
      expect(await badCard.count()).toBe(0);
      await expectReadablePage(page, `staff queue after ${name}`);
      await screenshot(page, `staff-queue-done-${viewport.width}`);

      expect(await db('events').whereIn('id', [good, bad]).orderBy('id').select('status', 'moderation_note')).toEqual([
        { status: 'approved', moderation_note: '' },
        { status: 'rejected', moderation_note: 'Niagara Falls is outside Toronto; we list events in the city only.' },
      ]);
      expect(b.t.mailer.sent.slice(sent).map((m) => [m.to, m.subject])).toEqual([
        [submitter.email, `Your event "Lantern Walk at Harbourfront (${name})" is approved`],
        [submitter.email, `Your event "Bus trip to Niagara Falls (${name})" was not approved`],
      ]);

      await page.goto(`${b.baseUrl}/staff/audit/`);
      const rows = page.locator('.staff-table tbody tr');
      await rows.first().getByText('event.reject').waitFor();
      await rows.nth(1).getByText('event.approve').waitFor();
      expect(await rows.first().textContent()).toContain(staff.email);
      await expectReadablePage(page, `staff audit ${name}`);
      await screenshot(page, `staff-audit-${viewport.width}`);

      // From any page, staff find the area in the navbar's account panel (members do not).
      await page.goto(`${b.baseUrl}/about`);
      await page.locator('.navbar__profile-button').click();
      const panel = page.locator('#nav-profile-panel');
      await panel.getByText('Logged in as').waitFor();
      await screenshot(page, `staff-navbar-link-${viewport.width}`);
      await Promise.all([page.waitForURL(`${b.baseUrl}/staff/`), panel.getByRole('link', { name: 'Staff area' }).click()]);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }

  test('at 375 px ticked events are approved together from the bulk form, without JavaScript', async () => {
    const db = b.t.ctx.db;
    const staff = await createMember(b.t.ctx, { email: 'bulk-editor@example.com', password: PASSWORD, is_staff: true });
    const submitter = await createMember(b.t.ctx, { email: 'bulk-pat@example.com' });
    const ids = [await createEvent(db, { title: 'Bulk picnic', status: 'pending', submitted_by: submitter.id }), await createEvent(db, { title: 'Bulk parade', status: 'pending', submitted_by: submitter.id })];
    const page = await signIn(VIEWPORTS.mobile, staff.email);
    // The same form with scripts off: the checkboxes reach it through their form attribute.
    await page.context().route('**/*.js', (route) => route.abort());
    await page.goto(`${b.baseUrl}/staff/events/`);
    await page.getByText('Decide on several events at once').click();
    for (const id of ids) await page.locator(`#event-${id}`).getByLabel('Tick to decide with others').check();
    await screenshot(page, 'staff-queue-bulk-375');
    await Promise.all([page.waitForURL(/count=2/), page.getByRole('button', { name: 'Approve ticked' }).click()]);
    await page.locator('[data-notice]').getByText('2 events are approved, starting with “Bulk picnic”. The members have been emailed.').waitFor();
    expect(await db('events').whereIn('id', ids).pluck('status')).toEqual(['approved', 'approved']);
    await page.context().close();
  });

  test('listing photos and contact messages read at both widths; a photo is removed and a message marked handled', async () => {
    const db = b.t.ctx.db;
    const staff = await createMember(b.t.ctx, { email: 'photo-editor@example.com', password: PASSWORD, is_staff: true });
    const uploader = await createMember(b.t.ctx, { full_name: 'Riley Uploader' });
    const typeId = await createListingType(db, { name: 'Cafes', slug: 'cafes' });
    const listingId = await createListing(db, { name: 'Pilot Coffee', type_id: typeId });
    const photoIds: number[] = [];
    for (const [i, colour] of [[0, { r: 190, g: 90, b: 40 }], [1, { r: 40, g: 120, b: 160 }]] as const) {
      const key = `photos/staff-browser/${i}.jpg`;
      await b.t.ctx.storage.put(key, await sharp({ create: { width: 600, height: 400, channels: 3, background: colour } }).jpeg().toBuffer(), 'image/jpeg');
      photoIds.push(await createPhoto(db, { listing_id: listingId, profile_id: uploader.id, title: `Flat white ${i}`, image_key: key }));
    }
    const [message] = await db('contact_messages')
      .insert({ question_category: 'advertise', comment: 'We would like to advertise our patio this summer.', name: 'Casey Owner', email: 'casey@example.com', business_name: 'Casey’s Patio', phone_number: '416-555-0199' })
      .returning('id');

    const page = await signIn(VIEWPORTS.desktop, staff.email);
    for (const viewport of Object.values(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await page.goto(`${b.baseUrl}/staff/photos/`);
      await page.locator(`#photo-${photoIds[1]}`).getByText('Flat white 1').waitFor();
      await expectReadablePage(page, `staff photos ${viewport.width}`);
      await screenshot(page, `staff-photos-${viewport.width}`);
      await page.goto(`${b.baseUrl}/staff/contact/`);
      await page.locator(`#message-${message.id}`).getByText('We would like to advertise our patio this summer.').waitFor();
      await expectReadablePage(page, `staff contact ${viewport.width}`);
      await screenshot(page, `staff-contact-${viewport.width}`);
    }

    await page.goto(`${b.baseUrl}/staff/photos/`);
    const card = page.locator(`#photo-${photoIds[0]}`);
    await card.getByLabel(/Reason/).fill('Wrong cafe');
    // Not ticked: the browser holds the form back (the box is required), nothing is removed.
    await card.getByRole('button', { name: 'Remove photo' }).click();
    await expect(card.getByLabel('Delete it for good').evaluate((el) => (el as HTMLInputElement).validity.valueMissing)).resolves.toBe(true);
    expect(page.url()).not.toMatch(/removed=/);
    await card.getByLabel('Delete it for good').check();
    await Promise.all([page.waitForURL(/removed=/), card.getByRole('button', { name: 'Remove photo' }).click()]);
    await page.getByText(`Photo #${photoIds[0]} has been removed.`).waitFor();
    expect(await card.count()).toBe(0);
    expect(await db('photos').whereIn('id', photoIds).pluck('id')).toEqual([photoIds[1]]);
    expect(await b.t.ctx.storage.exists('photos/staff-browser/0.jpg')).toBe(false);

    await page.goto(`${b.baseUrl}/staff/contact/`);
    await Promise.all([page.waitForURL(/#message-/), page.locator(`#message-${message.id}`).getByRole('button', { name: 'Mark handled' }).click()]);
    await page.locator(`#message-${message.id}`).getByText(`by ${staff.email}`).waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
