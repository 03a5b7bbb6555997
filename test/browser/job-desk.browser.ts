import { describeInBrowser } from './chromium';
import { expectReadablePage, logInAsStaff, newPageIn, screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { waitFor } from '../../server/testing/wait-for';

// The administrators' jobs page in a real browser, at phone and desktop widths (needs `npm run
// build:islands` first): an administrator signs in on the way to /staff/jobs/, finds a job that
// failed for good among the queues' figures, the running and the late jobs, presses Retry, and
// the job runs again. Every section reads at 375 px without the page scrolling sideways.


describeInBrowser('the jobs page in the browser', () => {
  let b: BrowserApp;
  const errors: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let failing = true;
  const ran: string[] = [];

  beforeAll(async () => {
    b = await startBrowserApp();
    await b.t.ctx.jobs.start();
  });
  afterAll(async () => {
    release();
    await b?.close();
  });

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    test(`at ${viewport.width} px an administrator sees a failed job among running and late ones, and retries it`, async () => {
      const jobs = b.t.ctx.jobs;
      const queue = `feeds.sync-${name}`;
      await jobs.work(queue, async (_data, job) => {
        ran.push(job.id);
        if (failing) throw new Error(`Feed https://example.com/calendar-${name}.ics answered 503 Service Unavailable`);
      }, { pollingIntervalSeconds: 0.5 });
      failing = true;
      const failedId = (await jobs.send(queue, { feedId: 42, url: `https://example.com/calendar-${name}.ics`, note: 'Harbourfront Centre weekly listings, imported every 30 minutes' }, { retryLimit: 0 }))!;
      await waitFor('the job to fail', async () => (await jobs.counts(queue)).failed === 1, 20_000);
      // Another queue's job runs all along (a queue's worker runs one job at a time).
      await jobs.work(`media.resize-${name}`, () => held, { pollingIntervalSeconds: 0.5 });
      const runningId = (await jobs.send(`media.resize-${name}`, { photoId: 43 }))!;
      await waitFor('the held job to run', async () => (await jobs.counts(`media.resize-${name}`)).active === 1, 20_000);
      // A queue nobody works: a job due ten minutes ago is late; one due tomorrow is scheduled.
      // (jsonb keeps an object's shorter keys first.)
      await jobs.send(`newsletters.send-${name}`, { issue: 118, list: name }, { startAfter: new Date(Date.now() - 10 * 60_000) });
      await jobs.send(`newsletters.send-${name}`, { issue: 119, list: name }, { startAfter: new Date(Date.now() + 24 * 3_600_000) });

      const page = await newPageIn(b, viewport, errors);
      await logInAsStaff(b, page, '/staff/jobs/', { email: `ops-${name}@example.com`, role: 'administrator' });

      const card = page.locator(`#job-${failedId}`);
      await card.locator('.staff-jobs__error p').getByText(`Feed https://example.com/calendar-${name}.ics answered 503 Service Unavailable`).waitFor();
      await card.getByText(failedId, { exact: true }).waitFor();
      await page.locator('#running').getByText(runningId).waitFor();
      await page.locator('#late').getByText(`"list":"${name}","issue":118`).waitFor();
      await expectReadablePage(page, `jobs page ${name}`);
      await screenshot(page, `staff-jobs-${viewport.width}`);

      // The trouble is fixed (the feed answers again): Retry, and the job runs once more.
      failing = false;
      await Promise.all([page.waitForURL(/retried=1/), card.getByRole('button', { name: /^Retry/ }).click()]);
      await page.locator('[data-notice]').getByText(`1 job of ${queue} is back in the queue, to run again now.`).waitFor();
      await waitFor('the retried job to complete', async () => (await jobs.counts(queue)).completed === 1, 20_000);
      expect(ran.filter((id) => id === failedId)).toHaveLength(2);
      await page.reload();
      expect(await page.locator(`#job-${failedId}`).count()).toBe(0);
      await expectReadablePage(page, `jobs page after retry ${name}`);
      await screenshot(page, `staff-jobs-retried-${viewport.width}`);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }
});
