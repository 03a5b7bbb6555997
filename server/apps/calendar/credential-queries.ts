import type { Db } from '../../db';
import type { TokenCipher } from './token-crypto';
import type { TokenResponse } from './google-client';

export interface CalendarCredentials {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  calendarId: string;
}

export async function loadCredentials(db: Db, cipher: TokenCipher, profileId: number): Promise<CalendarCredentials | null> {
  const row = await db('calendar_credentials').where({ profile_id: profileId, provider: 'google' }).first();
  if (!row) return null;
  try {
    return {
      accessToken: cipher.decrypt(row.access_token_enc),
      refreshToken: row.refresh_token_enc ? cipher.decrypt(row.refresh_token_enc) : null,
      expiresAt: row.expires_at ? new Date(row.expires_at) : null,
      calendarId: row.calendar_id,
    };
  } catch {
    // CASE: sealed with an older SESSION_SECRET: as good as none, the member authorises again.
    return null;
  }
}

/** Saves new tokens; Google sends a refresh token only on first consent, so an old one is kept. */
export async function saveTokens(db: Db, cipher: TokenCipher, profileId: number, tokens: TokenResponse, now: Date): Promise<void> {
  const expiresAt = tokens.expires_in ? new Date(now.getTime() + tokens.expires_in * 1000) : null;
  const fields: Record<string, unknown> = {
    access_token_enc: cipher.encrypt(tokens.access_token),
    expires_at: expiresAt,
    scope: tokens.scope ?? null,
    date_updated: now,
  };
  if (tokens.refresh_token) fields.refresh_token_enc = cipher.encrypt(tokens.refresh_token);
  await db('calendar_credentials')
    .insert({ profile_id: profileId, provider: 'google', refresh_token_enc: null, ...fields, date_created: now })
    .onConflict('profile_id')
    .merge(Object.keys(fields));
}

export async function deleteCredentials(db: Db, profileId: number): Promise<void> {
  await db('calendar_credentials').where({ profile_id: profileId }).delete();
}
