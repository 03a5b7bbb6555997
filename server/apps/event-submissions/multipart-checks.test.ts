import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type TestContext } from '../../testing/test-app';
import { cookieHeader, listenOnEphemeralPort, postUnfinished } from '../../testing/unfinished-post';

// Multipart bodies are expensive to read (an event image is up to 10 MB), so who may send one
// is decided before a byte of it is read: a guest, a wrong X-CSRFToken header, or a form whose
// first field is not the right csrfmiddlewaretoken is answered while the client still holds
// most of its body, and the connection is closed, the rest discarded unparsed (within the
// bounds of http/lingering-close.ts) so the client gets the answer. A body that cannot be
// parsed is a 400 naming the problem, never a 500.
jest.setTimeout(60_000);

const BOUNDARY = '----guideBoundary7MA4YWxkTrZu0gW';
const DECLARED_BYTES = 10 * 1024 * 1024;

function part(name: string, value: string): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
}

function filePartHead(name: string, filename: string): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: image/jpeg\r\n\r\n`;
}

const postMultipart = (port: number, path: string, headers: Record<string, string>, firstBytes: Buffer) =>
  postUnfinished(port, { path, contentType: `multipart/form-data; boundary=${BOUNDARY}`, declaredBytes: DECLARED_BYTES, headers, firstBytes });

describe('/events/add/ decides before reading a multipart body', () => {
  let t: TestContext;
  let listening: Awaited<ReturnType<typeof listenOnEphemeralPort>>;
  let port: number;
  let member: Agent;
  /** The start of an image upload: a big file part, 64 KB of it sent. */
  const imageStart = (fields: string) => Buffer.concat([Buffer.from(fields + filePartHead('thumbnail', 'poster.jpg')), Buffer.alloc(64 * 1024, 0xab)]);

  beforeAll(async () => {
    t = await createTestContext();
    member = await memberAgent(t, await createMember(t.ctx));
    listening = await listenOnEphemeralPort(t.app);
    port = listening.port;
  });
  afterAll(async () => {
    await listening.close();
    await t.close();
  });

  test("a guest's 10 MB post is sent to log in (page) or answered 401 (island) at once, the connection closed", async () => {
    const guest = guestAgent(t.app);
    const page = await postMultipart(port, '/events/add/', { Cookie: cookieHeader(guest) }, imageStart(part('csrfmiddlewaretoken', guest.csrfToken)));
    expect(page.status).toBe(302);
    expect(page.head).toMatch(/\r\nLocation: \/accounts\/login\?next=/i);
    expect(page.head).toMatch(/\r\nConnection: close/i);
    const island = await postMultipart(port, '/events/add/', { Cookie: cookieHeader(guest), 'X-CSRFToken': guest.csrfToken, Accept: 'application/json' }, imageStart(''));
    expect(island.status).toBe(401);
    expect(JSON.parse(island.body)).toEqual({ detail: 'Authentication credentials were not provided.' });
  });

  test("a member's post with a wrong X-CSRFToken header is refused 403 before its body is read", async () => {
    const res = await postMultipart(port, '/events/add/', { Cookie: cookieHeader(member), 'X-CSRFToken': 'x'.repeat(43), Accept: 'application/json' }, imageStart(part('title', 'Jazz')));
    expect(res.status).toBe(403);
    expect(res.body).toContain('CSRF Failed: CSRF token incorrect.');
  });

  test("without the header, a member's form whose first field is not the token is refused 403 at that field", async () => {
    const res = await postMultipart(port, '/events/add/', { Cookie: cookieHeader(member), Accept: 'application/json' }, imageStart(part('title', 'Jazz') + part('csrfmiddlewaretoken', member.csrfToken)));
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).detail).toMatch(/^CSRF Failed: CSRF token missing/);
    expect(res.head).toMatch(/\r\nConnection: close/i);
    const fileFirst = await postMultipart(port, '/events/add/', { Cookie: cookieHeader(member), Accept: 'application/json' }, imageStart(''));
    expect(fileFirst.status).toBe(403);
  });

  test('without the header, a wrong token as the first field is refused 403 before the image is read', async () => {
    const res = await postMultipart(port, '/events/add/', { Cookie: cookieHeader(member), Accept: 'application/json' }, imageStart(part('csrfmiddlewaretoken', 'y'.repeat(43))));
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toEqual({ detail: 'CSRF Failed: CSRF token incorrect.' });
  });

  test('an empty multipart body without the header has no token: 403', async () => {
    const res = await member.post('/events/add/').set('Accept', 'application/json').set('Content-Type', `multipart/form-data; boundary=${BOUNDARY}`).send(`--${BOUNDARY}--\r\n`);
    expect(res.status).toBe(403);
  });

  test('the island sends the token in the header only, and its form is accepted', async () => {
    const res = await member
      .post('/events/add/')
      .set('X-CSRFToken', member.csrfToken)
      .set('Accept', 'application/json')
      .field('title', 'Header-only event')
      .field('schedule_type', 'single_day');
    // Reached the form's own validation: the body was read and the token accepted.
    expect(res.status).toBe(400);
    expect(res.body.title).toBeUndefined();
    expect(res.body.date).toEqual(['This field is required.']);
  });
});

describe('malformed multipart bodies answer 400 naming the problem', () => {
  let t: TestContext;
  let member: Agent;

  beforeAll(async () => {
    t = await createTestContext();
    member = await memberAgent(t, await createMember(t.ctx));
  });
  afterAll(() => t.close());

  const cases: Array<[string, string, string, RegExp]> = [
    ['a missing boundary', 'multipart/form-data', part('a', 'b'), /^Multipart form parse error - Multipart: Boundary not found\.$/],
    ['a body cut off mid-part', `multipart/form-data; boundary=${BOUNDARY}`, `--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\nJazz in the`, /^Multipart form parse error - Unexpected end of form\.$/],
    ['a body with another boundary', `multipart/form-data; boundary=${BOUNDARY}`, `--other\r\nContent-Disposition: form-data; name="title"\r\n\r\nx\r\n--other--\r\n`, /^Multipart form parse error - Unexpected end of form\.$/],
    ['a malformed part header', `multipart/form-data; boundary=${BOUNDARY}`, `--${BOUNDARY}\r\nContent-Disposition form-data\x00\r\n\r\nx\r\n--${BOUNDARY}--\r\n`, /^Multipart form parse error - Malformed part header\.$/],
    ['a header block that never ends', `multipart/form-data; boundary=${BOUNDARY}`, `--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\nX: ${'y'.repeat(20_000)}\r\n\r\nx\r\n--${BOUNDARY}--\r\n`, /^Multipart form parse error - Malformed part header\.$/],
  ];

  describe.each(['/events/add/', '/streams/image-upload/'])('%s', (path) => {
    test.each(cases)('%s', async (_name, contentType, body, message) => {
      const res = await member.post(path).set('X-CSRFToken', member.csrfToken).set('Accept', 'application/json').set('Content-Type', contentType).send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: expect.stringMatching(message) });
    });
  });

  test('without JavaScript the form page says what was wrong, as a 400 page', async () => {
    const res = await member.post('/events/add/').set('Content-Type', `multipart/form-data; boundary=${BOUNDARY}`).send(`${part('csrfmiddlewaretoken', member.csrfToken)}--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\ncut`);
    expect(res.status).toBe(400);
    expect(res.type).toBe('text/html');
    expect(res.text).toContain('Multipart form parse error - Unexpected end of form.');
  });
});
