import type { Request } from 'express';
import { z } from 'zod';
import moment from 'moment-timezone';
import type { AppContext } from '../../context';
import { NotFoundError } from '../../http/errors';
import { validate } from '../../http/validate';
import { articlesInMonth, monthBounds } from '../articles/queries';
import type { PageView } from '../../http/pages/page-view';
import { pagesOrFirstPage, pageWindow, pathWithQuery } from '../../http/pages/page-param';

// The archives: a Month and a Year chooser (a GET form) and a page per month listing its
// articles, newest first.

export const ARCHIVE_PAGE_SIZE = 48;
export const MONTH_NAMES = moment.months();

export function archiveUrl(year: number, month: number): string {
  return `/archives/${year}/${String(month).padStart(2, '0')}/`;
}

function yearsOf(ctx: AppContext): number[] {
  const last = moment.tz(ctx.now(), ctx.config.city.timeZone).year();
  const years: number[] = [];
  for (let y = last; y >= ctx.config.city.startYear; y -= 1) years.push(y);
  return years;
}

export function archivesIndex(ctx: AppContext): PageView {
  const today = moment.tz(ctx.now(), ctx.config.city.timeZone);
  return {
    template: 'site-pages/archives.njk',
    months: MONTH_NAMES.map((name, i) => ({ value: String(i + 1).padStart(2, '0'), name })),
    years: yearsOf(ctx),
    selectedYear: today.year(),
    selectedMonth: String(today.month() + 1).padStart(2, '0'),
    pageTitle: 'Archives',
    pageDescription: `Every story from ${ctx.config.site.name}, month by month since ${ctx.config.city.startYear}.`,
    canonicalUrl: `${ctx.config.site.url}/archives/`,
  };
}

const chooserSchema = z.object({
  year: z.string().regex(/^\d{4}$/, 'Choose a year.').transform(Number),
  month: z.string().regex(/^(0?[1-9]|1[0-2])$/, 'Choose a month.').transform(Number),
});

/** The chooser's GET submission (/archives/?year=&month=) goes to the month's own URL. */
export function archiveChoice(query: unknown): string | null {
  const q = query as Record<string, unknown>;
  if (q.year === undefined && q.month === undefined) return null;
  const { year, month } = validate(chooserSchema, query);
  return archiveUrl(year, month);
}

export async function archiveMonth(ctx: AppContext, req: Request): Promise<PageView> {
  const { year: y, month: m } = req.params as { year: string; month: string };
  if (!/^\d{4}$/.test(y) || !/^(0[1-9]|1[0-2])$/.test(m)) throw new NotFoundError();
  const year = Number(y);
  const month = Number(m);
  const now = moment.tz(ctx.now(), ctx.config.city.timeZone);
  if (year < ctx.config.city.startYear || year > now.year() || (year === now.year() && month > now.month() + 1)) throw new NotFoundError();
  const { page, limit, offset } = pageWindow(req, ARCHIVE_PAGE_SIZE);
  const { count, rows } = await articlesInMonth(ctx.db, ctx.now(), monthBounds(year, month, ctx.config.city.timeZone), { limit, offset });
  const pages = pagesOrFirstPage(req, page, count, ARCHIVE_PAGE_SIZE);
  const title = `${MONTH_NAMES[month - 1]} ${year}`;
  return {
    ...archivesIndex(ctx),
    template: 'site-pages/archive-month.njk',
    selectedYear: year,
    selectedMonth: m,
    title,
    articles: rows,
    count,
    page,
    pages,
    basePath: archiveUrl(year, month),
    pageTitle: `Archives: ${title}${page > 1 ? ` – Page ${page}` : ''}`,
    pageDescription: `Stories published in ${title} on ${ctx.config.site.name}.`,
    canonicalUrl: `${ctx.config.site.url}${pathWithQuery(archiveUrl(year, month), { page })}`,
  };
}
