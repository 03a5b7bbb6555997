import net from 'node:net';
import { createMember, createTestContext, guestAgent, memberSessionCookie, type TestContext } from '../testing/test-app';
import { cookieHeader, listenOnEphemeralPort } from '../testing/unfinished-post';
import { runElsewhere, type AttemptResult, type Attempts, type BodySpec } from '../testing/uploading-client';
import { CSRF_COOKIE } from './csrf';
import { gracefulClose } from './graceful-close';
import { LINGER_MAX_BYTES, LINGER_MAX_MS } from './lingering-close';

// A request the server refuses before reading its body (a member whose session expired posts
// the add-event form, a guest posts a photo) is answered while the client is still sending.
// Closing the connection with the rest of the body unread makes the kernel answer it with a
// reset, and the client sees EPIPE or ECONNRESET instead of the answer (before: 9 to 12 of 20
// fetches received it). So the server reads and discards what is still coming, up to
// LINGER_MAX_BYTES and LINGER_MAX_MS, before it closes: every attempt below receives its
// answer, and a body over the bound is still cut off. The clients run in a process of their
// own (uploading-client.ts says why); the server is the app on a real port, on the suite's
// database (PGlite, or PostgreSQL with TEST_DATABASE_URL).
jest.setTimeout(180_000);

const ATTEMPTS = 20;
const BOUNDARY = '----guideBoundaryLingeringClose';
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

function part(name: string, value: string): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
}

/** The no-JavaScript add-event form of `bytes` in all: its token first, a title, an image. */
function eventForm(token: string, bytes: number): BodySpec {
  const imageHead = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="thumbnail"; filename="poster.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
  return { first: part('csrfmiddlewaretoken', token) + part('title', 'Jazz on the patio') + imageHead, fill: 0xab, last: `\r\n--${BOUNDARY}--\r\n`, bytes };
}

/** A listing photo as the API takes it: base64 JSON of `bytes` in all. */
const photoJson = (bytes: number): BodySpec => ({ first: '{"title":"Patio","image":"data:image/jpeg;base64,', fill: 0x41, last: '"}', bytes });

const statuses = (results: AttemptResult[]) => results.map((r) => r.status || r.error);

describe('a refused request gets its answer while its body is still coming', () => {
  let t: TestContext;
  let listening: Awaited<ReturnType<typeof listenOnEphemeralPort>>;
  let origin: string;
  /** Cookies of a member whose session has expired (looked up, then refused) and of a stale one (refused at once). */
  const cookies: Record<'expired' | 'stale', string> = { expired: '', stale: '' };
  let token: string;
  /** The server's side of each connection, by the client's port. */
  const serverSockets = new Map<number, net.Socket>();

  beforeAll(async () => {
    t = await createTestContext();
    const session = await memberSessionCookie(t, await createMember(t.ctx));
    await t.ctx.db('sessions').update({ expired: new Date(Date.now() - 60_000) });
    token = guestAgent(t.app).csrfToken;
    cookies.expired = `${CSRF_COOKIE}=${token}; ${session}`;
    // A session cookie whose signature no longer verifies (the secret changed): no lookup at all.
    cookies.stale = `${CSRF_COOKIE}=${token}; ${session.replace(/\.[^.]*$/, '.stale')}`;
    listening = await listenOnEphemeralPort(t.app);
    listening.server.on('connection', (socket: net.Socket) => serverSockets.set(socket.remotePort!, socket));
    origin = `http://127.0.0.1:${listening.port}`;
  });
  afterAll(async () => {
    await listening.close();
    await t.close();
  });

  /** fetch sends the form as a browser's FormData; the raw client writes it in 64 KB chunks. */
  const formAttempts = (client: Attempts['client'], bytes: number, cookie: string): Attempts =>
    client === 'fetch'
      ? {
          client,
          url: `${origin}/events/add/`,
          headers: { Cookie: cookie },
          body: { fields: [['csrfmiddlewaretoken', token], ['title', 'Jazz on the patio']], file: { field: 'thumbnail', filename: 'poster.jpg', type: 'image/jpeg', bytes } },
          count: ATTEMPTS,
        }
      : { client, url: `${origin}/events/add/`, headers: { 'Content-Type': MULTIPART, Cookie: cookie }, body: eventForm(token, bytes), count: ATTEMPTS };

  test.each([
    ['fetch', '1 MB', 'an expired', 1024 * 1024],
    ['fetch', '1 KB', 'an expired', 1024],
    ['raw', '1 MB', 'an expired', 1024 * 1024],
    ['fetch', '1 MB', 'a stale', 1024 * 1024],
    ['fetch', '1 KB', 'a stale', 1024],
    ['raw', '1 MB', 'a stale', 1024 * 1024],
  ] as const)('%s: the no-JavaScript add-event form of %s with %s session is sent to log in, 20 times of 20', async (client, _label, session, bytes) => {
    const results = await runElsewhere(formAttempts(client, bytes, session === 'an expired' ? cookies.expired : cookies.stale));
    expect(statuses(results)).toEqual(Array(ATTEMPTS).fill(302));
  });

  test.each([
    ['with', 401],
    ['without', 403],
  ] as const)("fetch: a guest's 8 MB photo JSON %s a CSRF token is answered %d, 20 times of 20", async (withToken, status) => {
    const guest = guestAgent(t.app);
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Cookie: cookieHeader(guest) };
    if (withToken === 'with') headers['X-CSRFToken'] = guest.csrfToken;
    const results = await runElsewhere({ client: 'fetch', url: `${origin}/api/v2/photos/`, headers, body: photoJson(8 * 1024 * 1024), count: ATTEMPTS });
    expect(statuses(results)).toEqual(Array(ATTEMPTS).fill(status));
  });

  test.each([
    ['the add-event form', 'closes the connection'],
    ['a photo JSON', 'keeps the connection alive'],
  ] as const)('%s over the bound is cut off when its answer %s: the server reads at most the bound past the answer', async (what, _answer) => {
    const bytes = 4 * LINGER_MAX_BYTES;
    const guest = guestAgent(t.app);
    const attempts: Attempts =
      what === 'a photo JSON'
        ? { client: 'raw', url: `${origin}/api/v2/photos/`, headers: { 'Content-Type': 'application/json', Cookie: cookieHeader(guest), 'X-CSRFToken': guest.csrfToken }, body: photoJson(bytes), count: 1 }
        : { ...formAttempts('raw', bytes, cookies.expired), count: 1 };
    const before = new Set(serverSockets.values());
    const [answer] = await runElsewhere(attempts);
    expect(answer.written).toBeLessThan(bytes);
    expect(answer.error).toMatch(/EPIPE|ECONNRESET/);
    const socket = [...serverSockets.values()].find((s) => !before.has(s))!;
    expect(socket.destroyed).toBe(true);
    // Before the answer the server read a few chunks; the rest is what it discarded.
    expect(socket.bytesRead).toBeLessThanOrEqual(LINGER_MAX_BYTES + 1024 * 1024);
  });

  /**
   * Sends the head and 64 KB of a 1 MB form, then nothing, its side left open; resolves with
   * the answer's status once the server has finished answering (its FIN).
   */
  function quietPost(port: number): Promise<{ status: number; client: net.Socket; server: net.Socket }> {
    return new Promise((resolve, reject) => {
      const client = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
      const received: Buffer[] = [];
      const spec = eventForm(token, 1024 * 1024);
      client.on('error', reject);
      client.on('data', (c: Buffer) => received.push(c));
      client.on('end', () => {
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(Buffer.concat(received).toString('latin1'))?.[1] ?? 0);
        resolve({ status, client, server: serverSockets.get(client.localPort!)! });
      });
      client.write(`POST /events/add/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${MULTIPART}\r\nCookie: ${cookies.expired}\r\nContent-Length: ${spec.bytes}\r\n\r\n${spec.first}`);
      client.write(Buffer.alloc(64 * 1024, spec.fill));
    });
  }

  const closed = (socket: net.Socket) => (socket.destroyed ? Promise.resolve() : new Promise<void>((resolve) => socket.once('close', () => resolve())));

  test(`a client that goes quiet after the answer is not held open: the server closes within its ${LINGER_MAX_MS} ms bound`, async () => {
    const { status, client, server } = await quietPost(listening.port);
    expect(status).toBe(302);
    // The client neither finishes its body nor closes its side: the server's time bound ends it
    // (without one, this waits for the test's timeout).
    await closed(server);
    client.destroy();
  });

  test('graceful close (SIGTERM) waits for a lingering connection and cuts nothing off', async () => {
    const other = await listenOnEphemeralPort(t.app);
    other.server.on('connection', (socket: net.Socket) => serverSockets.set(socket.remotePort!, socket));
    const closer = gracefulClose(other.server);
    const { status, client, server } = await quietPost(other.port);
    expect(status).toBe(302);
    // Answered, and still reading what the client might send: the close has something to wait for.
    expect(server.destroyed).toBe(false);
    // server/index.ts gives what is in flight the configured grace; a lingering connection ends
    // within its own, shorter bound, so nothing is cut off.
    expect(await closer.close(t.ctx.config.shutdownGraceMs)).toEqual({ forced: false });
    expect(server.destroyed).toBe(true);
    client.destroy();
  });
});
