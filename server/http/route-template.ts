import type { NextFunction, Request, Response } from 'express';

// Which route answered a request, as its template (`/articles/:slug/`), never the URL: the
// label of the request figures (metrics.ts) and of slow-query warnings, so their number stays
// bounded whatever URLs arrive. Express's matched route gives it; an answer made by middleware
// names itself (the page cache's stored answers, static files); nothing matched: 'unmatched'.

export const UNMATCHED = 'unmatched';

const LABEL = Symbol('routeTemplate');

type Labelled = { [LABEL]?: string };

/** The template of the route that matched req, or the one its answer was labelled with. */
export function routeTemplate(req: Partial<Pick<Request, 'route' | 'baseUrl'>>, res: object): string {
  const label = (res as Labelled)[LABEL];
  if (label !== undefined) return label;
  const path: unknown = req.route?.path;
  if (path === undefined) return UNMATCHED;
  // A router mounted under a prefix (none is, today): the prefix as matched, then the template.
  return `${req.baseUrl}${typeof path === 'string' ? path : String(path)}`;
}

/** Names the route of an answer that middleware makes (a stored page replays its route's template). */
export function labelRoute(res: object, template: string): void {
  (res as Labelled)[LABEL] = template;
}

/** Middleware: every answer from here on is labelled `template` (mounted where the answers are made). */
export function routeLabel(template: string) {
  return function routeLabelMiddleware(_req: Request, res: Response, next: NextFunction): void {
    labelRoute(res, template);
    next();
  };
}
