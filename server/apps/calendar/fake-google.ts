import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A local HTTP server that plays Google for tests: the consent screen (an 'Allow' link back to
// the redirect URI with the code it accepts), the OAuth token endpoint and Calendar's
// events.insert, recording what it was sent.

export interface FakeGoogle {
  url: string;
  env: Record<string, string>;
  inserted: Array<{ authorization: string; calendarId: string; body: Record<string, unknown> }>;
  tokenRequests: Array<Record<string, string>>;
  /** Refresh tokens Google has revoked. */
  revoked: Set<string>;
  /** Access tokens Google accepts. */
  validAccessTokens: Set<string>;
  close(): Promise<void>;
}

export async function startFakeGoogle(): Promise<FakeGoogle> {
  let issued = 0;
  const fake: Omit<FakeGoogle, 'url' | 'env' | 'close'> = { inserted: [], tokenRequests: [], revoked: new Set(), validAccessTokens: new Set() };
  const calendarEventIds = new Set<string>();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'POST' && req.url === '/token') {
        const form = Object.fromEntries(new URLSearchParams(raw));
        fake.tokenRequests.push(form);
        if (form.client_id !== 'test-client' || form.client_secret !== 'test-secret') return send(401, { error: 'invalid_client' });
        if (form.grant_type === 'authorization_code' && form.code === 'good-code') {
          const access = `access-${++issued}`;
          fake.validAccessTokens.add(access);
          return send(200, { access_token: access, refresh_token: 'refresh-1', expires_in: 3599, scope: 'https://www.googleapis.com/auth/calendar.events', token_type: 'Bearer' });
        }
        if (form.grant_type === 'refresh_token' && !fake.revoked.has(form.refresh_token)) {
          const access = `access-${++issued}`;
          fake.validAccessTokens.add(access);
          return send(200, { access_token: access, expires_in: 3599, token_type: 'Bearer' });
        }
        return send(400, { error: 'invalid_grant', error_description: 'Bad Request' });
      }
      const consent = new URL(req.url ?? '/', 'http://fake.invalid');
      if (req.method === 'GET' && consent.pathname === '/o/oauth2/v2/auth') {
        // Only back to a local redirect URI: this stand-in never sends a browser elsewhere.
        const back = consent.searchParams.get('redirect_uri') ?? '';
        if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(back)) return send(400, { error: 'redirect_uri_mismatch' });
        const state = consent.searchParams.get('state') ?? '';
        const to = (q: string) => `${back}?${q}&state=${encodeURIComponent(state)}`.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width"><title>Fake Google consent</title></head><body><main><h1>Allow access to your calendar?</h1><p><a href="${to('code=good-code')}">Allow</a> <a href="${to('error=access_denied')}">Deny</a></p></main></body></html>`);
        return;
      }
      const insert = /^\/calendar\/v3\/calendars\/([^/]+)\/events$/.exec(req.url ?? '');
      if (req.method === 'POST' && insert) {
        const authorization = req.headers.authorization ?? '';
        if (!fake.validAccessTokens.has(authorization.replace(/^Bearer /, ''))) return send(401, { error: { code: 401, status: 'UNAUTHENTICATED', message: 'Invalid Credentials' } });
        const body = JSON.parse(raw) as Record<string, unknown>;
        if (typeof body.id === 'string' && calendarEventIds.has(body.id)) return send(409, { error: { code: 409, status: 'ALREADY_EXISTS', message: 'The requested identifier already exists.' } });
        if (typeof body.id === 'string') calendarEventIds.add(body.id);
        fake.inserted.push({ authorization, calendarId: decodeURIComponent(insert[1]), body });
        return send(200, { ...body, id: body.id ?? `gcal-${fake.inserted.length}`, htmlLink: 'https://calendar.example/event' });
      }
      send(404, { error: 'not_found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ...fake,
    url,
    env: {
      GOOGLE_CLIENT_ID: 'test-client',
      GOOGLE_CLIENT_SECRET: 'test-secret',
      GOOGLE_AUTH_URL: `${url}/o/oauth2/v2/auth`,
      GOOGLE_TOKEN_URL: `${url}/token`,
      GOOGLE_CALENDAR_API_URL: `${url}/calendar/v3`,
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
