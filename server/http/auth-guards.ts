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

/** API guard: 401 for guests, 403 for members who are not staff. */
export function requireStaff(req: Request, _res: Response, next: NextFunction): void {
  if (!req.user) return next(new NotAuthenticatedError());
  if (!req.user.is_staff) return next(new PermissionDeniedError());
  next();
}

/**
 * Page guard for the staff area: guests go to the login page and come back; a signed-in
 * member who is not staff gets the 403 error page (a page, never a stack trace).
 */
export function requireStaffPage(req: Request, res: Response, next: NextFunction): void {
  if (!req.user) {
    // A form posted after the session ended comes back to the staff area, not to a POST-only URL.
    const back = req.method === 'GET' || req.method === 'HEAD' ? req.originalUrl : '/staff/';
    return res.redirect(302, `/accounts/login?next=${encodeURIComponent(back)}`);
  }
  if (!req.user.is_staff) return next(new PermissionDeniedError('This part of the site is for staff.'));
  next();
}

/** The signed-in member's id; call only behind requireMember. */
export function memberId(req: Request): number {
  if (!req.user) throw new NotAuthenticatedError();
  return req.user.id;
}

/** API guard for the newsroom: 401 for guests, 403 for members without a newsroom role. */
export function requireNewsroom(req: Request, _res: Response, next: NextFunction): void {
  if (!req.user) return next(new NotAuthenticatedError());
  if (!req.user.newsroom_role) return next(new PermissionDeniedError('The newsroom is for staff with a newsroom role.'));
  next();
}

/** Page guard for the newsroom: guests go to the login page and come back; members without a role get the 403 page. */
export function requireNewsroomPage(req: Request, res: Response, next: NextFunction): void {
  if (!req.user) {
    const back = req.method === 'GET' || req.method === 'HEAD' ? req.originalUrl : '/staff/stories/';
    return res.redirect(302, `/accounts/login?next=${encodeURIComponent(back)}`);
  }
  if (!req.user.newsroom_role) return next(new PermissionDeniedError('The newsroom is for staff with a newsroom role.'));
  next();
}
