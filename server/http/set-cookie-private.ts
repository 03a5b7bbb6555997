import type { NextFunction, Request, Response } from 'express';

// A shared cache must never store an answer that sets a cookie: it would hand one visitor's
// csrftoken or session to the next. Cookies are set at many steps (the CSRF token where a
// page prints it, the session's rolling renewal when the headers go out, the signed-in cookie,
// a handler), so the decision is made last, as the headers are written: an answer carrying
// Set-Cookie has its `public` Cache-Control turned `private` (same max-age: the visitor's own
// browser may still keep it).
//
// Installed before the session middleware: writeHead wrappers run newest first, so this one
// runs after express-session's (which sets its cookie in its own wrapper).

const PUBLIC = /^\s*public\b/i;

export function setCookieMakesPrivate(_req: Request, res: Response, next: NextFunction): void {
  const writeHead = res.writeHead;
  res.writeHead = function writeHeadPrivateWhenSettingCookies(this: Response, ...args: unknown[]) {
    const cacheControl = this.getHeader('Cache-Control');
    if (this.getHeader('Set-Cookie') !== undefined && typeof cacheControl === 'string' && PUBLIC.test(cacheControl)) {
      this.setHeader('Cache-Control', cacheControl.replace(PUBLIC, 'private'));
    }
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as Response['writeHead'];
  next();
}
