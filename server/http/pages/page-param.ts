import type { Request } from 'express';
import { z } from 'zod';
import { validate } from '../validate';
import { NotFoundError, ValidationError } from '../errors';
import { PageRedirect } from './page-view';

// The paging parameters of the server-rendered pages. A bad value is a 400 naming the
// parameter (the error page says which). A page past the last one is an old link (shared or
// bookmarked when the list was longer): it goes to the first page, the other parameters kept
// (spec 2 §4: past the count, the hub resets to the first page).

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

/**
 * The number of pages. A GET of a page beyond the last is sent to the first page (a 302: the
 * list may grow back) by throwing the redirect, which page() answers; any other method is a 404.
 */
export function pagesOrFirstPage(req: Request, page: number, count: number, perPage: number, param = 'page'): number {
  const pages = pageCount(count, perPage);
  if (page <= pages) return pages;
  if (req.method !== 'GET' && req.method !== 'HEAD') throw new NotFoundError();
  throw new PageRedirect(firstPageUrl(req, param));
}

/** This URL without its page parameter: the first page, every other parameter as it came. */
export function firstPageUrl(req: Request, param = 'page'): string {
  const url = new URL(req.originalUrl, 'http://localhost');
  url.searchParams.delete(param);
  // One leading slash: the location stays on this site whatever the path looked like.
  return `/${url.pathname.replace(/^\/+/, '')}${url.search}`;
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
