import crypto from 'node:crypto';
import { httpRequest, startServerProcess, type Answer, type ServerProcess } from './server-process';

// The server process in production mode (NODE_ENV=production: Secure cookies, CSRF's origin
// checks, the guest page cache) as it runs behind its TLS-terminating proxy: requests say so
// with X-Forwarded-Proto (trusted from loopback), and unsafe ones carry the site's Origin.

export const SITE_URL = 'https://guide.test';

export function startProductionServerProcess(opts: { databaseUrl?: string; env?: Record<string, string> } = {}): Promise<ServerProcess> {
  return startServerProcess({
    databaseUrl: opts.databaseUrl,
    env: { NODE_ENV: 'production', SESSION_SECRET: crypto.randomBytes(48).toString('base64url'), SITE_URL, ...opts.env },
  });
}

export interface SecureMember {
  email: string;
  /** Headers for any of the member's requests. */
  headers: Record<string, string>;
  /** Headers for the member's unsafe requests with a JSON body (adds the CSRF token and the Origin). */
  jsonHeaders: Record<string, string>;
}

/** Signs up a new member through the API, as a browser on the HTTPS site would. */
export async function signUpSecure(port: number): Promise<SecureMember> {
  const csrfToken = crypto.randomBytes(32).toString('base64url');
  const email = `process-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const proxied = { 'X-Forwarded-Proto': 'https' };
  const unsafe = { ...proxied, 'Content-Type': 'application/json', Origin: SITE_URL, 'X-CSRFToken': csrfToken };
  const res: Answer = await httpRequest(port, '/api/v2/profiles/email-registration/', {
    method: 'POST',
    headers: { ...unsafe, Cookie: `csrftoken=${csrfToken}` },
    body: JSON.stringify({ email, password: 'correct horse battery staple' }),
  });
  if (res.status !== 201) throw new Error(`sign-up answered ${res.status}: ${res.body}`);
  const session = (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).find((c) => c.startsWith('sessionid='));
  if (!session) throw new Error('sign-up set no session cookie');
  const cookie = `csrftoken=${csrfToken}; ${session}`;
  return { email, headers: { ...proxied, Cookie: cookie }, jsonHeaders: { ...unsafe, Cookie: cookie } };
}
