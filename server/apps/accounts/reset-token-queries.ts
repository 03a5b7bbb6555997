import crypto from 'node:crypto';
import type { Db } from '../../db';

// One-time password-reset tokens: 32 random bytes mailed out, only their sha256 stored, so a
// leaked database cannot be used to reset anyone's password. A token works once, until it
// expires, and issuing or using one retires the member's older ones.

export const RESET_TOKEN_TTL_MS = 2 * 3600 * 1000;

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** A token looks like base64url of 32 bytes; anything else is rejected before a query. */
export function isWellFormedToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

export async function issueResetToken(db: Db, profileId: number, now: Date): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  await db.transaction(async (trx) => {
    await trx('password_reset_tokens').where({ profile_id: profileId }).whereNull('used_at').update({ used_at: now });
    await trx('password_reset_tokens').insert({
      profile_id: profileId,
      token_hash: hashToken(token),
      expires_at: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
    });
  });
  return token;
}

/** The member id a live token belongs to, or undefined (unknown, used or expired). */
export async function findLiveToken(db: Db, token: string, now: Date): Promise<number | undefined> {
  if (!isWellFormedToken(token)) return undefined;
  const row = await db('password_reset_tokens')
    .where({ token_hash: hashToken(token) })
    .whereNull('used_at')
    .where('expires_at', '>', now)
    .first('profile_id');
  return row ? Number(row.profile_id) : undefined;
}

/** Marks the token used and answers its member; undefined when another request used it first. */
export async function consumeToken(db: Db, token: string, now: Date): Promise<number | undefined> {
  if (!isWellFormedToken(token)) return undefined;
  const [row] = await db('password_reset_tokens')
    .where({ token_hash: hashToken(token) })
    .whereNull('used_at')
    .where('expires_at', '>', now)
    .update({ used_at: now })
    .returning('profile_id');
  return row ? Number(row.profile_id) : undefined;
}
