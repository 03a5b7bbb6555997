import type { Db } from '../../db';

// Captcha keys already answered, kept in the database (table used_captcha_keys) rather than in
// a process: behind a load balancer the replay would otherwise reach a process that has not
// seen the key. One atomic insert spends a key, so two processes racing on it cannot both win.

/**
 * Spends `key` (valid until `expiresAt`): true the first time, false if it was spent before.
 * Rows past their expiry are swept first; contact messages are few and rate limited.
 */
export async function spendCaptchaKey(db: Db, key: string, expiresAt: Date, now: Date): Promise<boolean> {
  await db('used_captcha_keys').where('expires_at', '<=', now).del();
  const spent: Array<{ key: string }> = await db('used_captcha_keys').insert({ key, expires_at: expiresAt }).onConflict('key').ignore().returning('key');
  return spent.length === 1;
}
