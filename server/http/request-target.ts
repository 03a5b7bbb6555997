import type { NextFunction, Request, Response } from 'express';
import { HttpError } from './errors';

// A request names a path (`/about`) or, through a proxy, an absolute URL (`http://host/about`).
// Anything else (`GET *`, `GET host:443`) names nothing on this site; the session middleware
// skips a target that is not a path, and passport then took the missing session for a server
// error (a 500). Such a request is refused as the bad request it is.

export const BAD_TARGET_MESSAGE = 'The request target must be a path.';

const ABSOLUTE = /^https?:\/\//i;

export function requirePathTarget(req: Request, _res: Response, next: NextFunction): void {
  if (req.url.startsWith('/') || ABSOLUTE.test(req.url)) return next();
  throw new HttpError(400, BAD_TARGET_MESSAGE);
}
