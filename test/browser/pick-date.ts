import { expect } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';

/**
 * Picks a date in the event form's read-only date field as a member does: its calendar, month
 * by month. Checks, inside the page, that the picked day is marked before the calendar closes
 * (the spec's date-picker blur keeps it open 250 ms).
 */
export async function pickDate(page: Page, scope: Locator | Page, label: string, iso: string): Promise<void> {
  await scope.getByRole('button', { name: `Choose ${label.toLowerCase()}` }).click();
  const dialog = page.getByRole('dialog', { name: `Choose ${label.toLowerCase()}` });
  await dialog.waitFor();
  for (let i = 0; i < 36 && (await dialog.locator(`[data-date="${iso}"]`).count()) === 0; i++) {
    await dialog.getByRole('button', { name: iso < (await dialog.locator('[data-date]').first().getAttribute('data-date'))! ? 'Previous month' : 'Next month' }).click();
  }
  const day = dialog.locator(`[data-date="${iso}"]`);
  await day.evaluate((button) => {
    const timing: { marked?: number; closed?: number } = {};
    (window as unknown as { datePickTiming: typeof timing }).datePickTiming = timing;
    const box = button.closest('dialog, [role="dialog"]')!;
    new MutationObserver(() => {
      if (timing.marked === undefined && button.getAttribute('aria-pressed') === 'true') timing.marked = performance.now();
      if (timing.closed === undefined && !box.isConnected) timing.closed = performance.now();
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-pressed'] });
  });
  await day.click();
  await dialog.waitFor({ state: 'detached' });
  const timing = await page.evaluate(() => (window as unknown as { datePickTiming: { marked?: number; closed?: number } }).datePickTiming);
  // The day was marked while the calendar was still open (the 250 ms delay itself is checked
  // with fake timers in event-form.test.tsx: timestamps on a busy page arrive late and unevenly).
  expect(timing.marked).toBeDefined();
  expect(timing.closed).toBeDefined();
  expect(timing.marked!).toBeLessThan(timing.closed!);
}
