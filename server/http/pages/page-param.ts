import { z } from 'zod';
import { validate } from '../../http/validate';
import { NotFoundError } from '../../http/errors';

// Query parameters of the server-rendered pages. Bad values are a 400 naming the parameter
// (the error page says which); a page past the last one is a 404, as it does not exist.

const pageNumber = z
  .string()
  .regex(/^\d{1,6}$/, 'Enter a whole page number.')
  .transform(Number)
  .refine((n) => n >= 1, 'Pages start at 1.');

export const pageQuerySchema = z.object({ page: pageNumber.optional() });

/** Reads ?page= (default 1) and answers the limit/offset of that page. */
export function pageFromQuery(query: unknown, perPage: number): { page: number; limit: number; offset: number } {
  const { page = 1 } = validate(pageQuerySchema, query);
  return { page, limit: perPage, offset: (page - 1) * perPage };
}

/** The number of pages for `count` items (at least 1, so an empty list is page 1 of 1). */
export function pageCount(count: number, perPage: number): number {
  return Math.max(1, Math.ceil(count / perPage));
}

/** Throws a 404 when the asked page is beyond the last. */
export function assertPageExists(page: number, count: number, perPage: number): number {
  const pages = pageCount(count, perPage);
  if (page > pages) throw new NotFoundError();
  return pages;
}

/** `path?k=v&…` with empty values (and page 1) left out, so each page has one canonical URL. */
export function pathWithQuery(path: string, params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === null || v === undefined || v === '' || (k === 'page' && Number(v) === 1)) continue;
    q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}
