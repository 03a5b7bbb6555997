import type { Request } from 'express';
import type { Member } from '../profiles/member';
import { writeSignedInCookie } from './signed-in-cookie';

// Passport's login and logout as promises. Passport 0.7 regenerates the session on both, so
// a session id planted before sign-in is worthless after it (session fixation). Both answer
// the signed-in cookie (signed-in-cookie.ts) at once, so the next page's islands, even one the
// browser had cached, know whether to ask who is signed in.

export async function signIn(req: Request, member: Member): Promise<void> {
  await new Promise<void>((resolve, reject) => req.login(member, (err) => (err ? reject(err) : resolve())));
  if (req.res) writeSignedInCookie(req, req.res, true);
}

export async function signOut(req: Request): Promise<void> {
  if (req.user) await new Promise<void>((resolve, reject) => req.logout((err) => (err ? reject(err) : resolve())));
  if (req.res) writeSignedInCookie(req, req.res, false);
}
