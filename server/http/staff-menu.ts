import type { AppContext } from '../context';
import type { Db } from '../db';

// The staff area's menu. Each app with pages under /staff/ contributes its section (the staff
// app its queues and the audit log, contests, ads, Best of theirs); the registry puts them in
// order in ctx.menus.staff, and every staff page renders the same menu from there, so no app
// imports another for it.

/** One link of the staff landing page and of every staff page's menu. */
export interface StaffSection {
  href: string;
  title: string;
  text: string;
  /** For a queue: how many items wait in it (the landing page's badge). */
  pending?(db: Db): Promise<number>;
}

/** What templates/staff/layout.njk needs: the menu, and which of its links is the current page. */
export function staffMenu(ctx: Pick<AppContext, 'menus'>, currentSection: string) {
  return { sections: ctx.menus.staff.map(({ href, title, text }) => ({ href, title, text })), currentSection };
}

/** Each queue's waiting items, by its section's href (the landing page's badges). */
export async function staffBadgeCounts(ctx: Pick<AppContext, 'menus' | 'db'>): Promise<Record<string, number>> {
  const queues = ctx.menus.staff.filter((s) => s.pending);
  const counts = await Promise.all(queues.map((s) => s.pending!(ctx.db)));
  return Object.fromEntries(queues.map((s, i) => [s.href, counts[i]]));
}
