import zlib from 'node:zlib';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type TestContext } from '../../testing/test-app';
import { cookieHeader, listenOnEphemeralPort, postUnfinished } from '../../testing/unfinished-post';
import { createListing } from '../../testing/fixtures';
import { jpegImage, noiseJpeg } from '../media/test-images';
import { IMAGE_WORK_CONCURRENCY, imageWork, UPLOAD_BODY_CONCURRENCY, uploadBodies } from '../media/image-work';

// A listing photo is ~8.4 MB of base64 JSON and a 48-megapixel photo decodes to ~140 MB of
// pixels: a guest's body is never read, member bodies wait for an upload slot, and decoding
// waits for an image-work slot, so 40 uploads at once cannot take the process's memory. A body
// read holds its photo's bytes once: the base64 is decoded as it arrives, never kept as text.
jest.setTimeout(120_000);

/** Sends the head and the first 64 KB of an 8 MB JSON body, and waits for the answer. */
const postUnfinishedJson = (port: number, headers: Record<string, string>) =>
  postUnfinished(port, {
    path: '/api/v2/photos/',
    contentType: 'application/json',
    declaredBytes: 8 * 1024 * 1024,
    headers: { Connection: 'close', ...headers },
    firstBytes: `{"image":"data:image/jpeg;base64,${'A'.repeat(64 * 1024)}`,
  });

describe('listing photo uploads are bounded', () => {
  let t: TestContext;
  let listening: Awaited<ReturnType<typeof listenOnEphemeralPort>>;
  let port: number;
  let member: Agent;
  let listingId: number;

  beforeAll(async () => {
    t = await createTestContext();
    member = await memberAgent(t, await createMember(t.ctx));
    listingId = await createListing(t.ctx.db, { name: 'Bar Raval' });
    listening = await listenOnEphemeralPort(t.app);
    port = listening.port;
  });
  afterAll(async () => {
    await listening.close();
    await t.close();
  });

  test("a guest's 8 MB photo body is answered 401/403 before it is read", async () => {
    const guest = guestAgent(t.app);
    const withToken = await postUnfinishedJson(port, { Cookie: cookieHeader(guest), 'X-CSRFToken': guest.csrfToken });
    expect(withToken.status).toBe(401);
    expect(JSON.parse(withToken.body)).toEqual({ detail: 'Authentication credentials were not provided.' });
    const withoutToken = await postUnfinishedJson(port, { Cookie: cookieHeader(guest) });
    expect(withoutToken.status).toBe(403);
  });

  test('concurrent uploads decode within the image-work slots and read bodies within the upload slots', async () => {
    const image = `data:image/jpeg;base64,${(await jpegImage(2400, 1600)).toString('base64')}`;
    const upload = () => member.post('/api/v2/photos/').set('X-CSRFToken', member.csrfToken).send({ image, title: 'Patio', description: '', listing: listingId });
    let decodeNow = 0;
    let decodePeak = 0;
    let bodiesPeak = 0;
    const run = imageWork.run.bind(imageWork);
    const spy = jest.spyOn(imageWork, 'run').mockImplementation((task) =>
      run(async () => {
        decodeNow += 1;
        decodePeak = Math.max(decodePeak, decodeNow);
        bodiesPeak = Math.max(bodiesPeak, uploadBodies.active);
        try {
          return await task();
        } finally {
          decodeNow -= 1;
        }
      }),
    );
    try {
      const results = await Promise.all(Array.from({ length: 10 }, upload));
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    } finally {
      spy.mockRestore();
    }
    // Ten uploads did overlap, and yet no more than the slots ran at once.
    expect(decodePeak).toBeGreaterThanOrEqual(1);
    expect(decodePeak).toBeLessThanOrEqual(IMAGE_WORK_CONCURRENCY);
    expect(bodiesPeak).toBeGreaterThan(1);
    expect(bodiesPeak).toBeLessThanOrEqual(UPLOAD_BODY_CONCURRENCY);
    expect(uploadBodies.active).toBe(0);
    expect(imageWork.active).toBe(0);
  });

  test("a photo's base64 is decoded as the body arrives: never parsed as JSON text, held once", async () => {
    const photo = await noiseJpeg(1024 * 1024);
    const body = JSON.stringify({ image: `data:image/jpeg;base64,${photo.toString('base64')}`, title: 'Patio', listing: listingId });
    const parse = jest.spyOn(JSON, 'parse');
    let res;
    // Read before mockRestore, which clears what the spy recorded.
    let parsed: string[] = [];
    try {
      res = await member.post('/api/v2/photos/').set('X-CSRFToken', member.csrfToken).set('Content-Type', 'application/json').send(body);
      parsed = parse.mock.calls.map(([text]) => String(text));
    } finally {
      parse.mockRestore();
    }
    expect(res.status).toBe(201);
    expect(res.body.title).toBe('Patio');
    // The server parsed the JSON around the image (and small answers), not the 1.4 MB of text.
    expect(parsed.length).toBeGreaterThan(0);
    const longest = Math.max(...parsed.map((text) => text.length));
    expect(body.length).toBeGreaterThan(1024 * 1024);
    expect(longest).toBeLessThan(64 * 1024);
  });

  test('a gzip-compressed photo body is read as express.json read it; one past the limit is a 413', async () => {
    const image = (await jpegImage(300, 200)).toString('base64');
    const gzipped = zlib.gzipSync(JSON.stringify({ image, listing: listingId }));
    // Sent as it is (supertest would serialise a Buffer as JSON).
    const res = await fetch(`http://127.0.0.1:${port}/api/v2/photos/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', Cookie: cookieHeader(member), 'X-CSRFToken': member.csrfToken },
      body: gzipped,
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { id: unknown }).id).toEqual(expect.any(Number));
    const app = t.rebuild({ PHOTO_UPLOAD_MAX_MB: '0.5' });
    const small = await memberAgent({ app, ctx: t.ctx }, { id: (await createMember(t.ctx)).id });
    const tooLong = await small.post('/api/v2/photos/').set('X-CSRFToken', small.csrfToken).send({ image: 'A'.repeat(2.5 * 1024 * 1024), listing: listingId });
    expect(tooLong.status).toBe(413);
  });
});
