import type { Request } from 'express';
import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../shared/constants';
import type { Page } from '../../shared/dto';
import { ValidationError } from './errors';
import { siteUrlOf } from './request-path';

// limit/offset pagination answering {count, next, previous, results}, as DRF's
// LimitOffsetPagination does, with next and previous on SITE_URL (never the Host header:
// shared caches keep these answers).

export interface PageParams {
  limit: number;
  offset: number;
}

const nonNegativeInt = (field: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${field} must be a whole number of 0 or more.`)
    .transform(Number);

/** Reads limit and offset from the request's query; bad values are a 400 naming the field. */
export function pageParams(req: Request, defaultLimit: number, maxLimit: number = MAX_PAGE_SIZE): PageParams {
  return pageParamsFromQuery(req.query as Record<string, unknown>, defaultLimit, maxLimit);
}

/** The same for a query object already in hand (services that parse their own params). */
export function pageParamsFromQuery(q: Record<string, unknown>, defaultLimit: number, maxLimit: number = MAX_PAGE_SIZE): PageParams {
  const errors: Record<string, string[]> = {};
  let limit = defaultLimit;
  let offset = 0;
  if (q.limit !== undefined && q.limit !== '') {
    const r = nonNegativeInt('limit').safeParse(q.limit);
    if (!r.success) errors.limit = ['A valid integer is required.'];
    else if (r.data < 1) errors.limit = ['Ensure this value is greater than or equal to 1.'];
    else if (r.data > maxLimit) errors.limit = [`Ensure this value is less than or equal to ${maxLimit}.`];
    else limit = r.data;
  }
  if (q.offset !== undefined && q.offset !== '') {
    const r = nonNegativeInt('offset').safeParse(q.offset);
    if (!r.success) errors.offset = ['A valid integer is required.'];
    else offset = r.data;
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { limit, offset };
}

function pageUrl(req: Request, limit: number, offset: number | null): string | null {
  if (offset === null) return null;
  const url = siteUrlOf(req);
  url.searchParams.set('limit', String(limit));
  if (offset <= 0) url.searchParams.delete('offset');
  else url.searchParams.set('offset', String(offset));
  return url.toString();
}

export function paginated<T>(req: Request, params: PageParams, count: number, results: T[]): Page<T> {
  const { limit, offset } = params;
  const next = offset + limit < count ? offset + limit : null;
  const previous = offset > 0 ? Math.max(0, Math.min(offset - limit, count - limit)) : null;
  return {
    count,
    next: pageUrl(req, limit, next),
    previous: previous === null ? null : pageUrl(req, limit, previous),
    results,
  };
}
