import fs from 'node:fs';
import sharp from 'sharp';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type TestContext } from '../../testing/test-app';
import { jpegImage, jpegWithGps, noiseJpeg, pngImage } from '../media/test-images';
import { renditionPath } from '../media/renditions';
import { renditionParamsFor } from '../media/rendition-params';
import { mediaCacheDir } from '../media/api';
import { LIMITS } from '../../../shared/constants';
import { avatarMessages, STORED_AVATAR_MAX_SIDE } from './service';

// The profile photo: PATCH /api/v2/profiles/me/ {avatar: base64 JPEG | null} (spec 1 §3, §5, §7).
jest.setTimeout(120_000);

const patch = (agent: Agent, body: unknown) => agent.patch('/api/v2/profiles/me/').set('X-CSRFToken', agent.csrfToken).send(body as object);
const dataUrl = (b: Buffer, type = 'image/jpeg') => `data:${type};base64,${b.toString('base64')}`;

describe('the profile photo', () => {
  let t: TestContext;
  let alice: Agent;
  let aliceId: number;

  beforeAll(async () => {
    t = await createTestContext();
    const m = await createMember(t.ctx, { full_name: 'Alice Munro' });
    aliceId = m.id;
    alice = await memberAgent(t, m);
  });
  afterAll(() => t.close());

  const storedKey = async () => (await t.ctx.db('profiles').where({ id: aliceId }).first('avatar')).avatar as string | null;

  test('a cropped JPEG becomes the avatar, served everywhere at 80x80, without its metadata', async () => {
    const res = await patch(alice, { avatar: dataUrl(await jpegWithGps(900, 600, 6)) });
    expect(res.status).toBe(200);
    const key = await storedKey();
    expect(key).toMatch(/^avatars\/\d{4}\/\d{2}\/[0-9a-f]{24}\.jpg$/);
    expect(res.body.avatar).toBe(key);
    expect(res.body.avatar_url).toBe(`/media/${key}?w=80&h=80&cmd=crop`);
    expect(res.body.full_name).toBe('Alice Munro');
    // Stored upright, bounded, and with no EXIF (GPS) left in it.
    const stored = await t.ctx.storage.get(key!);
    const meta = await sharp(stored!).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBe(STORED_AVATAR_MAX_SIDE);
    expect(meta.height! > meta.width!).toBe(true);
    expect(meta.exif).toBeUndefined();
    // The 80x80 rendition is left to a job queued at upload; the URL the API prints serves it
    // (made on this first request, as no worker runs here) and keeps it.
    expect(fs.existsSync(renditionPath(mediaCacheDir(t.config), key!, renditionParamsFor('avatar')))).toBe(false);
    const img = await alice.get(res.body.avatar_url);
    expect(img.status).toBe(200);
    const served = await sharp(img.body).metadata();
    expect([served.width, served.height]).toEqual([80, 80]);
    expect(fs.existsSync(renditionPath(mediaCacheDir(t.config), key!, renditionParamsFor('avatar')))).toBe(true);
    // The navbar's auth status and GET /me/ print the same URL.
    expect((await alice.get('/api/v2/profiles/hi/')).body.avatar_url).toBe(res.body.avatar_url);
    expect((await alice.get('/api/v2/profiles/me/')).body.avatar_url).toBe(res.body.avatar_url);
  });

  test('a new photo replaces the old one, whose file and renditions go', async () => {
    await patch(alice, { avatar: dataUrl(await jpegImage(300, 300)) });
    const old = (await storedKey())!;
    const res = await patch(alice, { avatar: (await jpegImage(200, 200)).toString('base64') });
    expect(res.status).toBe(200);
    const key = (await storedKey())!;
    expect(key).not.toBe(old);
    expect(await t.ctx.storage.exists(old)).toBe(false);
    expect(fs.existsSync(renditionPath(mediaCacheDir(t.config), old, renditionParamsFor('avatar')))).toBe(false);
    expect(await t.ctx.storage.exists(key)).toBe(true);
  });

  test('null removes the photo', async () => {
    await patch(alice, { avatar: dataUrl(await jpegImage(120, 120)) });
    const old = (await storedKey())!;
    const res = await patch(alice, { avatar: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ avatar: null, avatar_url: null });
    expect(await storedKey()).toBeNull();
    expect(await t.ctx.storage.exists(old)).toBe(false);
  });

  test('a seeded avatar file shared with other content is left in place when replaced', async () => {
    await t.ctx.storage.put('seed/shared.jpg', await jpegImage(100, 100));
    await t.ctx.db('profiles').where({ id: aliceId }).update({ avatar: 'seed/shared.jpg' });
    const res = await patch(alice, { avatar: dataUrl(await jpegImage(100, 100)) });
    expect(res.status).toBe(200);
    expect(await t.ctx.storage.exists('seed/shared.jpg')).toBe(true);
  });

  test('accepts a JPEG just under 6 MB sent as ~8.4 MB of base64 JSON', async () => {
    const big = await noiseJpeg(LIMITS.profilePhotoBytes - 60_000);
    const res = await patch(alice, { avatar: dataUrl(big) });
    expect(res.status).toBe(200);
    expect(res.body.avatar_url).toMatch(/^\/media\/avatars\//);
  });

  test('refuses more than 6291456 bytes by its length, before decoding, naming the field', async () => {
    const over = Buffer.alloc(LIMITS.profilePhotoBytes + 3, 0xff);
    const res = await patch(alice, { avatar: dataUrl(over) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ avatar: [avatarMessages.tooLargeOrNotJpeg] });
  });

  test.each([
    ['a declared PNG', async () => dataUrl(await pngImage(), 'image/png'), avatarMessages.tooLargeOrNotJpeg],
    ['a PNG sent as a JPEG', async () => dataUrl(await pngImage()), avatarMessages.tooLargeOrNotJpeg],
    ['JPEG magic and garbage', async () => Buffer.from([0xff, 0xd8, 0xff, 1, 2, 3, 4, 5, 6]).toString('base64'), avatarMessages.notAnImage],
    ['text that is not base64', async () => '%%% not base64 %%%', avatarMessages.notAnImage],
    ['a truncated JPEG', async () => { const whole = await jpegImage(300, 200); return whole.subarray(0, Math.floor(whole.length / 2)).toString('base64'); }, avatarMessages.notAnImage],
  ])('refuses %s with 400 on avatar and keeps the photo it had', async (_name, make, message) => {
    await patch(alice, { avatar: dataUrl(await jpegImage(90, 90)) });
    const before = await storedKey();
    const res = await patch(alice, { avatar: await make() });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ avatar: [message] });
    expect(await storedKey()).toBe(before);
  });

  test.each([[42], [''], [{}], [['x']], [true]])('refuses avatar %p with 400 naming the field', async (value) => {
    const res = await patch(alice, { avatar: value });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['avatar']);
  });

  test('a name change still works alongside, and a guest gets 401', async () => {
    const res = await patch(alice, { full_name: 'Alice M.' });
    expect(res.status).toBe(200);
    expect(res.body.full_name).toBe('Alice M.');
    const guest = guestAgent(t.app);
    await guest.get('/');
    const anon = await guest.patch('/api/v2/profiles/me/').set('X-CSRFToken', guest.csrfToken).send({ avatar: dataUrl(await jpegImage(50, 50)) });
    expect(anon.status).toBe(401);
  });

  test.each([[200 * 1024], [2 * 1024 * 1024]])("the photo's base64 is decoded as the body arrives (%i bytes), as a listing photo's: never parsed as JSON text", async (bytes) => {
    const body = JSON.stringify({ avatar: dataUrl(await noiseJpeg(bytes)), full_name: 'Alice Munro' });
    const parse = jest.spyOn(JSON, 'parse');
    let res;
    let parsed: string[];
    try {
      res = await alice.patch('/api/v2/profiles/me/').set('X-CSRFToken', alice.csrfToken).set('Content-Type', 'application/json').send(body);
    } finally {
      // Read before mockRestore, which forgets the calls.
      parsed = parse.mock.calls.map(([text]) => String(text));
      parse.mockRestore();
    }
    expect(res.status).toBe(200);
    expect(res.body.avatar_url).toMatch(/^\/media\/avatars\//);
    // What was parsed is the JSON around the photo, its string left empty (media/json-base64-body-middleware.ts).
    expect(parsed).toContain('{"avatar":"","full_name":"Alice Munro"}');
    expect(Math.max(...parsed.map((text) => text.length))).toBeLessThan(64 * 1024);
  });

  test('a body over the photo limit is refused 413, and a small body over 1 MB is not', async () => {
    const huge = await patch(alice, { avatar: `data:image/jpeg;base64,${'A'.repeat(11 * 1024 * 1024)}` });
    expect(huge.status).toBe(413);
    // Read through the upload slot: larger than the app-wide 1 MB, within the photo's limit.
    const long = await patch(alice, { full_name: 'x'.repeat(2 * 1024 * 1024) });
    expect(long.status).toBe(400);
    expect(Object.keys(long.body)).toEqual(['full_name']);
  });
});
