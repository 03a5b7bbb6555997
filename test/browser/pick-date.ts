import type { Locator, Page } from 'playwright-core';

/** Picks a date in the event form's read-only date field as a member does: its calendar, month by month. */
export async function pickDate(page: Page, scope: Locator | Page, label: string, iso: string): Promise<void> {
  await scope.getByRole('button', { name: `Choose ${label.toLowerCase()}` }).click();
  const dialog = page.getByRole('dialog', { name: `Choose ${label.toLowerCase()}` });
  await dialog.waitFor();
  for (let i = 0; i < 36 && (await dialog.locator(`[data-date="${iso}"]`).count()) === 0; i++) {
    await dialog.getByRole('button', { name: iso < (await dialog.locator('[data-date]').first().getAttribute('data-date'))! ? 'Previous month' : 'Next month' }).click();
  }
  await dialog.locator(`[data-date="${iso}"]`).click();
  await dialog.waitFor({ state: 'detached' });
}
