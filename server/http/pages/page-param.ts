import type { Request } from 'express';
import { z } from 'zod';
import { validate } from '../validate';
import { NotFoundError, ValidationError } from '../errors';

// The paging parameters of the server-rendered pages. A bad value is a 400 naming the
// parameter (the error page says which); a page past the last one is a 404, as Django's
// paginator answers: that URL shows nothing, so readers and search engines are told so.

const PAGE_MESSAGE = 'A valid page number is required.';
const pageNumberSchema = z.string({ message: PAGE_MESSAGE }).regex(/^\d{1,6}$/, PAGE_MESSAGE).transform(Number).refine((n) => n >= 1, PAGE_MESSAGE);

export interface PageWindow {
  page: number;
  limit: number;
  offset: number;
}

/** ?page= (or another 1-based parameter such as ?slide=): the page asked for, default 1. */
export function pageNumber(req: Request, param = 'page'): number {
  const raw = (req.query as Record<string, unknown>)[param];
  const { [param]: page = 1 } = validate(z.object({ [param]: pageNumberSchema.optional() }), { [param]: raw === '' ? undefined : raw });
  return page;
}

/** The page asked for, as the limit/offset of its rows. */
export function pageWindow(req: Request, perPage: number, param = 'page'): PageWindow {
  const page = pageNumber(req, param);
  return { page, limit: perPage, offset: (page - 1) * perPage };
}

/** The number of pages for `count` items (at least 1, so an empty list is page 1 of 1). */
export function pageCount(count: number, perPage: number): number {
  return Math.max(1, Math.ceil(count / perPage));
}

/** The number of pages, or a 404 when the asked page is beyond the last. */
export function pagesOrNotFound(page: number, count: number, perPage: number): number {
  const pages = pageCount(count, perPage);
  if (page > pages) throw new NotFoundError();
  return pages;
}

/** ?offset= as a whole number of 0 or more (the load-more links). */
export function offsetParam(req: Request, max = 100_000): number {
  const raw = (req.query as Record<string, unknown>).offset;
  if (raw === undefined || raw === '') return 0;
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw) || Number(raw) > max) {
    throw ValidationError.field('offset', 'A valid integer is required.');
  }
  return Number(raw);
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
