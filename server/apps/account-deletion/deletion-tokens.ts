import crypto from 'node:crypto';
import { hashToken, isWellFormedToken } from '../accounts/reset-token-queries';

// The two links of a deletion (confirm, for members without a password; undo, for everybody)
// are 32 random bytes mailed out, stored as sha256 only, as password-reset tokens are: a leaked
// database restores or confirms nobody's deletion.

export function newToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

/** The stored hash of a token as it arrives in a URL; null when it cannot be one of ours. */
export function hashOfSubmitted(token: string): string | null {
  return isWellFormedToken(token) ? hashToken(token) : null;
}
