import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A local HTTP server that plays Google for tests: the OAuth token endpoint and Calendar's
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
