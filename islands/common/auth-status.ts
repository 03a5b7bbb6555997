import { api, readCookie } from './api';
import { SIGNED_IN_COOKIE } from '../../shared/constants';
import type { AuthStatusDTO } from '../../shared/dto';

// The navbar and the saves island both need to know, as a page loads, who is signed in and
// when each kind of save last changed. Pages are the same for everybody and do not say, so
// they share one GET /api/v2/profiles/hi/ per page load instead of asking twice; a failure
// (401 once the session is gone) is shared too. A guest's page load asks nothing: the server
// sets the signed-in cookie only while a member is signed in.
let pending: Promise<AuthStatusDTO> | null = null;

/** Whether anyone may be signed in here, so that asking is worth a request. */
export function maybeSignedIn(): boolean {
  return readCookie(SIGNED_IN_COOKIE) !== undefined;
}

export function authStatusOnce(): Promise<AuthStatusDTO> {
  pending ??= api.get<AuthStatusDTO>('/api/v2/profiles/hi/');
  return pending;
}
