import type { NextFunction, Request, Response } from 'express';
import { NotAuthenticatedError, PermissionDeniedError } from './errors';

/** API guard: 401 {"detail": ...} for guests. */
export function requireMember(req: Request, _res: Response, next: NextFunction): void {
  if (!req.user) return next(new NotAuthenticatedError());
  next();
}

/** Page guard: guests go to the full-page login and come back afterwards. */
export function requireMemberPage(req: Request, res: Response, next: NextFunction): void {
  if (!req.user) return res.redirect(302, `/accounts/login?next=${encodeURIComponent(req.originalUrl)}`);
  next();
}

export function requireStaff(req: Request, _res: Response, next: NextFunction): void {
  if (!req.user) return next(new NotAuthenticatedError());
  if (!req.user.is_staff) return next(new PermissionDeniedError());
  next();
}

/** The signed-in member's id; call only behind requireMember. */
export function memberId(req: Request): number {
  if (!req.user) throw new NotAuthenticatedError();
  return req.user.id;
}
