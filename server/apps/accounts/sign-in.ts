import type { Request } from 'express';
import type { Member } from '../profiles/member';

// Passport's login and logout as promises. Passport 0.7 regenerates the session on both, so
// a session id planted before sign-in is worthless after it (session fixation).

export function signIn(req: Request, member: Member): Promise<void> {
  return new Promise((resolve, reject) => req.login(member, (err) => (err ? reject(err) : resolve())));
}

export function signOut(req: Request): Promise<void> {
  if (!req.user) return Promise.resolve();
  return new Promise((resolve, reject) => req.logout((err) => (err ? reject(err) : resolve())));
}
