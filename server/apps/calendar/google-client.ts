import { z } from 'zod';
import type { Config } from '../../config';

// The two Google APIs we call, through their configurable endpoints (tests point them at a
// local server that plays Google): OAuth 2.0 tokens and Calendar events.insert.

export const CALENDAR_SCOPE = 'https://www.googleapis.com/auth/calendar.events';
const TIMEOUT_MS = 10_000;

export class GoogleApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

// Google's token answer as we use it; an optional field of an unexpected type is dropped.
const tokenResponseSchema = z.object({
  access_token: z.string(),
  expires_in: z.number().optional().catch(undefined),
  refresh_token: z.string().optional().catch(undefined),
  scope: z.string().optional().catch(undefined),
  token_type: z.string().optional().catch(undefined),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export interface GoogleCalendarEvent {
  id?: string;
  summary: string;
  description?: string;
  location?: string;
  start: { date?: string; dateTime?: string; timeZone?: string };
  end: { date?: string; dateTime?: string; timeZone?: string };
  recurrence?: string[];
  source?: { title: string; url: string };
}

async function call(url: string, init: RequestInit): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { error: 'invalid_json' };
  }
  return { status: res.status, body };
}

function errorOf(status: number, body: Record<string, unknown>): GoogleApiError {
  const err = body.error as string | { status?: string; message?: string } | undefined;
  const code = typeof err === 'string' ? err : err?.status ?? `http_${status}`;
  const message = typeof err === 'object' && err?.message ? err.message : String(body.error_description ?? code);
  return new GoogleApiError(status, code, message);
}

export function createGoogleClient(google: Config['google'], redirectUri: string) {
  const tokenRequest = async (fields: Record<string, string>): Promise<TokenResponse> => {
    const { status, body } = await call(google.tokenUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams({ client_id: google.clientId ?? '', client_secret: google.clientSecret ?? '', ...fields }).toString(),
    });
    const token = tokenResponseSchema.safeParse(body);
    if (status !== 200 || !token.success) throw errorOf(status, body);
    return token.data;
  };

  return {
    authorizationUrl(state: string): string {
      const url = new URL(google.authUrl);
      url.search = new URLSearchParams({
        client_id: google.clientId ?? '',
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: CALENDAR_SCOPE,
        access_type: 'offline', // a refresh token, so saves keep syncing after an hour
        prompt: 'consent',
        include_granted_scopes: 'true',
        state,
      }).toString();
      return url.toString();
    },
    exchangeCode: (code: string) => tokenRequest({ code, grant_type: 'authorization_code', redirect_uri: redirectUri }),
    refresh: (refreshToken: string) => tokenRequest({ refresh_token: refreshToken, grant_type: 'refresh_token' }),

    /** events.insert; a 409 means the copy with our id is already there, which is success. */
    async insertEvent(accessToken: string, calendarId: string, event: GoogleCalendarEvent): Promise<{ id: string; alreadyThere: boolean }> {
      const { status, body } = await call(`${google.calendarApiUrl}/calendars/${encodeURIComponent(calendarId)}/events`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(event),
      });
      if (status === 409 && event.id) return { id: event.id, alreadyThere: true };
      if (status !== 200 || typeof body.id !== 'string') throw errorOf(status, body);
      return { id: body.id, alreadyThere: false };
    },
  };
}

export type GoogleClient = ReturnType<typeof createGoogleClient>;
