import { describeInBrowser } from './chromium';
import { expectReadablePage, logInAsStaff, newPageIn, screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createListing, createListingType } from '../../server/testing/fixtures';

// Best of lists that show their work, in a real browser at phone and desktop widths (needs
// `npm run build:islands` first): a staff member moves a pick up with a reason, with scripts
// off (plain forms); a reader then reads the list's "How we chose" (criteria and each pick's
// evidence) and its change log with that reason, the changes page, and the RSS feed, which
// the browser's own XML parser must read.


describeInBrowser('Best of method and change log in the browser', () => {
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
    test(`at ${viewport.width} px staff move a pick with a reason, and a reader reads the method and the change log`, async () => {
      const db = b.t.ctx.db;
      const typeId = await createListingType(db, { name: `Restaurants ${name}`, slug: `restaurants-${name}` });
      const slug = `best-pizza-${name}`;
      const [row] = await db('best_of_lists')
        .insert({ title: 'The best pizza in Toronto', slug, intro: 'Toronto has no shortage of pizza, but some stand out.', criteria: 'Every place is independent and was visited by one of our editors within the past year, paying our own way.' })
        .returning('id');
      const listId = Number(row.id ?? row);
      const base = name === 'mobile' ? 10_800_000 : 10_900_000;
      const places = [
        { name: 'Pizzeria Libretto', rating: 4.6, rating_count: 212, dinesafe_establishment_id: base + 1 },
        { name: 'Bitondo Pizzeria', rating: 4.2, rating_count: 88, dinesafe_establishment_id: base + 2 },
        { name: 'Descendant Detroit Style Pizza', rating: 4.4, rating_count: 157, dinesafe_establishment_id: null },
      ];
      const ids: number[] = [];
      for (const [i, p] of places.entries()) {
        const id = await createListing(db, { ...p, type_id: typeId, appears_in_best_of_lists: true, address: `${100 + i} Ossington Ave` });
        await db('best_of_list_items').insert({ list_id: listId, listing_id: id, position: i + 1, blurb: `${p.name} makes a great pie.`, last_visited_on: `2026-0${i + 3}-1${i}` });
        ids.push(id);
      }
      await db('dinesafe_inspections').insert({ establishment_id: base + 1, inspected_on: '2026-02-11', status: 'Pass' });

      // ## The editor, without JavaScript
      const editor = await newPage(viewport);
      await editor.context().route('**/*.js', (route) => route.abort());
      const staff = await logInAsStaff(b, editor, `/staff/best-of/${slug}/`, { email: `pizza-editor-${name}@example.com` });
      const third = editor.locator(`#pick-${ids[2]}`);
      await third.getByRole('heading', { name: '3. Descendant Detroit Style Pizza' }).waitFor();
      await third.getByLabel(/Why move it/).fill('Three visits this fall: the best crust in the city right now.');
      await expectReadablePage(editor, `staff best-of ${name}`);
      await screenshot(editor, `best-of-staff-edit-${viewport.width}`);
      await Promise.all([editor.waitForURL(/done=moved_up/), third.getByRole('button', { name: 'Move up' }).click()]);
      await editor.getByRole('status').getByText('Saved.').waitFor();
      await editor.locator(`#pick-${ids[2]}`).getByRole('heading', { name: '2. Descendant Detroit Style Pizza' }).waitFor();
      await screenshot(editor, `best-of-staff-saved-${viewport.width}`);
      expect((await db('best_of_list_items').where({ list_id: listId }).orderBy('position').pluck('listing_id')).map(Number)).toEqual([ids[0], ids[2], ids[1]]);
      const audit = await db('staff_audit_log').where({ subject_type: 'best_of_list', subject_id: listId }).select('action', 'staff_email', 'note');
      expect(audit).toEqual([{ action: 'best_of.moved_up', staff_email: staff.email, note: 'Three visits this fall: the best crust in the city right now.' }]);
      await editor.context().close();

      // ## A reader
      const reader = await newPage(viewport);
      await reader.goto(`${b.baseUrl}/best-of/${slug}/`);
      const ranked = reader.locator('.ranked-list__name');
      expect(await ranked.allTextContents()).toEqual(['Pizzeria Libretto', 'Descendant Detroit Style Pizza', 'Bitondo Pizzeria']);
      const method = reader.locator('#how-we-chose');
      await method.getByRole('heading', { name: 'How we chose' }).waitFor();
      await method.getByText('Every place is independent and was visited by one of our editors').waitFor();
      const firstPick = method.locator('.best-of-evidence__item').first();
      expect((await firstPick.innerText()).replace(/\s+/g, ' ')).toContain('Pizzeria Libretto Rating 4.60 from 212 ratings Food safety DineSafe Pass, February 11, 2026 Last visit March 10, 2026');
      const log = reader.locator('#changes');
      await log.getByText('Moved Descendant Detroit Style Pizza up from No. 3 to No. 2').waitFor();
      await log.getByText('Three visits this fall: the best crust in the city right now.').waitFor();
      expect(await reader.locator(`link[rel="alternate"][type="application/rss+xml"][href="/best-of/${slug}/changes/rss.xml"]`).count()).toBe(1);
      await expectReadablePage(reader, `best-of list ${name}`);
      await method.scrollIntoViewIfNeeded();
      await screenshot(reader, `best-of-method-${viewport.width}`);

      await Promise.all([reader.waitForURL(`${b.baseUrl}/best-of/${slug}/changes/`), log.getByRole('link', { name: 'The change log' }).click()]);
      await reader.getByRole('heading', { name: 'Changes to The best pizza in Toronto', level: 1 }).waitFor();
      await expectReadablePage(reader, `best-of changes ${name}`);
      await screenshot(reader, `best-of-changes-${viewport.width}`);

      // The feed, read by the browser's XML parser.
      const feed = await reader.evaluate(async (url) => {
        const text = await (await fetch(url)).text();
        const doc = new DOMParser().parseFromString(text, 'application/xml');
        return {
          error: doc.querySelector('parsererror')?.textContent ?? null,
          title: doc.querySelector('channel > title')?.textContent,
          items: [...doc.querySelectorAll('item')].map((i) => [i.querySelector('title')?.textContent, i.querySelector('description')?.textContent]),
        };
      }, `/best-of/${slug}/changes/rss.xml`);
      expect(feed).toEqual({
        error: null,
        title: expect.stringContaining('Changes to The best pizza in Toronto'),
        items: [['Moved Descendant Detroit Style Pizza up from No. 3 to No. 2', 'Three visits this fall: the best crust in the city right now.']],
      });
      expect(errors).toEqual([]);
      await reader.context().close();
    });
  }
});
