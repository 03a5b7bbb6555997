import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { setCachePolicy, type CachePolicy } from './cache-policy';

// The one page convention: a route names its cache policy and a loader; the loader answers
// what to show (a template and its data), where to go instead (a redirect), or null when the
// URL is not this route's (pattern paths such as /{type}/ pass it on; nothing left is the 404
// page). Loaders never call res.render, so they read as functions of the request and routers
// stay one line per page: `router.get('/news/', page('shared-for-guests', (req) => hubPage(ctx, req)))`.
// A posted form's loader answers through formPost (form-post.ts): its redirect, or the form
// again with the messages (400).

/** A template and the data it renders. */
export interface PageView {
  template: string;
  [data: string]: unknown;
}

/**
 * CASE: the page lives elsewhere (a canonical path, a choice made in a plain form). A loader
 * returns it, or throws it from deep in a helper (a page number past the last).
 */
export class PageRedirect {
  constructor(readonly location: string, readonly status: 301 | 302 | 303 = 302) {}
}

export type PageAnswer = PageView | PageRedirect | null;
export type PageLoader = (req: Request, res: Response) => PageAnswer | Promise<PageAnswer>;

/** The route handler of a page: load, then redirect, pass on, or render under the cache policy. */
export function page(policy: CachePolicy, load: PageLoader): RequestHandler {
  return async function renderPage(req: Request, res: Response, next: NextFunction): Promise<void> {
    let answer: PageAnswer;
    try {
      answer = await load(req, res);
    } catch (err) {
      if (!(err instanceof PageRedirect)) throw err;
      answer = err;
    }
    // A form post may answer a script itself (the contact island's JSON).
    if (res.headersSent) return;
    if (answer === null) return next();
    if (answer instanceof PageRedirect) return res.redirect(answer.status, answer.location);
    const { template, ...data } = answer;
    setCachePolicy(req, res, policy);
    res.render(template, data);
  };
}
