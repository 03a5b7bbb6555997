import crypto from 'node:crypto';
import { deriveKey } from './token-crypto';

// The OAuth `state`: who asked (member id), a one-time nonce, where to go afterwards and which
// saved event to add once authorised, signed with a key derived from SESSION_SECRET. The
// callback accepts it only for the same signed-in member, and, when it was issued to a
// session, only in that session (the nonce is kept there and used once): a code from someone
// else's Google account cannot be planted on a member.

declare module 'express-session' {
  interface SessionData {
    calendarOAuthNonce?: string;
  }
}

export const STATE_TTL_MS = 15 * 60 * 1000;

export interface OAuthState {
  /** member id */
  m: number;
  /** one-time nonce */
  n: string;
  /** the path to return to */
  x: string;
  /** an event to add to the calendar once authorised */
  e?: number;
  /** true when the nonce is also kept in the session that asked */
  s: boolean;
  /** expiry, ms since the epoch */
  exp: number;
}

export function createStateSigner(secret: string) {
  const key = deriveKey(secret, 'calendar-oauth-state');
  const mac = (payload: string) => crypto.createHmac('sha256', key).update(payload).digest('base64url');
  return {
    sign(state: Omit<OAuthState, 'n' | 'exp'>, now: Date): { token: string; nonce: string } {
      const nonce = crypto.randomBytes(16).toString('base64url');
      const payload = Buffer.from(JSON.stringify({ ...state, n: nonce, exp: now.getTime() + STATE_TTL_MS })).toString('base64url');
      return { token: `${payload}.${mac(payload)}`, nonce };
    },
    /** The state if its signature holds and it has not expired; null otherwise. */
    verify(token: unknown, now: Date): OAuthState | null {
      if (typeof token !== 'string' || token.length > 2000) return null;
      const [payload, signature] = token.split('.');
      if (!payload || !signature) return null;
      const expected = Buffer.from(mac(payload));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
      try {
        const state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as OAuthState;
        if (typeof state.m !== 'number' || typeof state.n !== 'string' || typeof state.exp !== 'number' || state.exp < now.getTime()) return null;
        return state;
      } catch {
        return null;
      }
    },
  };
}
