import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type TestContext } from '../../testing/test-app';
import { createListing, createPhoto } from '../../testing/fixtures';
import { mediaCacheDir } from '../media/api';
import { jpegImage, jpegWithGps, noiseJpeg, pngImage } from '../media/test-images';
import { messages, PHOTO_RENDITIONS } from './service';
import { renditionPath } from '../media/renditions';
import { WARM_RENDITIONS_JOB } from '../media/warm-renditions-job';

// The projects' testTimeout in jest.config.ts is not applied (jest reads it only at the top
// level); a fresh database per file and image work need more than 5 s on a busy machine.
jest.setTimeout(60_000);

const JPG_MESSAGE = messages.tooLargeOrNotJpeg(6);

describe('photos API', () => {
  let t: TestContext;
  let alice: Agent;
  let bob: Agent;
  let aliceId: number;
  let listingId: number;
  let jpeg: string;

  const post = (agent: Agent, body: unknown) => agent.post('/api/v2/photos/').set('X-CSRFToken', agent.csrfToken).send(body as object);

  beforeAll(async () => {
    t = await createTestContext();
    const a = await createMember(t.ctx);
    aliceId = a.id;
    alice = await memberAgent(t, a);
    bob = await memberAgent(t, await createMember(t.ctx));
    listingId = await createListing(t.ctx.db, { name: 'Bar Raval' });
    jpeg = (await jpegWithGps(60, 40, 6)).toString('base64');
  });
  afterAll(() => t.close());

  describe('POST /api/v2/photos/', () => {
    test('stores an upright JPEG with no EXIF (GPS included) and answers the photo', async () => {
      const res = await post(alice, { image: `data:image/jpeg;base64,${jpeg}`, title: 'Patio', description: 'Sunny', listing: listingId });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ title: 'Patio', description: 'Sunny', listing: { id: listingId, name: 'Bar Raval' } });
      expect(res.body.share_path).toMatch(new RegExp(`-${listingId}/photos/${res.body.id}/$`));
      expect(res.body.prism_image_url).toMatch(/^http:\/\/localhost:\d+\/media\/photos\/\d{4}\/\d{2}\/[0-9a-f]+\.jpg$/);

      const row = await t.ctx.db('photos').where({ id: res.body.id }).first();
      expect(row.profile_id).toBe(aliceId);
      const stored = await t.ctx.storage.get(row.image_key);
      expect(stored).not.toBeNull();
      const meta = await sharp(stored!).metadata();
      expect(meta.format).toBe('jpeg');
      // Orientation 6 means "rotate 90°": the 60x40 original is stored as 40x60 pixels.
      expect([meta.width, meta.height, row.width, row.height]).toEqual([40, 60, 40, 60]);
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(stored!.includes(Buffer.from('secret-owner'))).toBe(false);
      // Its grid and viewer sizes are left to a job (media/warm-renditions-job.test.ts works it), not made in the request.
      for (const size of PHOTO_RENDITIONS) expect(fs.existsSync(renditionPath(mediaCacheDir(t.config), row.image_key, size))).toBe(false);
      expect(Number((await t.ctx.db.raw(`SELECT count(*) AS n FROM pgboss.job WHERE name = ? AND singleton_key = ?`, [WARM_RENDITIONS_JOB, row.image_key])).rows[0].n)).toBe(1);
    });

    test('accepts the base64 without a data: prefix and the listing id as a string', async () => {
      const res = await post(alice, { image: jpeg, listing: String(listingId) });
      expect(res.status).toBe(201);
      expect(res.body.title).toBe('');
    });

    test('accepts a 6 MB JPEG sent as ~8.4 MB of base64 JSON', async () => {
      const big = await noiseJpeg(6 * 1024 * 1024 - 50_000);
      const res = await post(alice, { image: big.toString('base64'), listing: listingId });
      expect(res.status).toBe(201);
    });

    test('refuses a PNG, declared or renamed, with the JPG-only message', async () => {
      const png = (await pngImage()).toString('base64');
      const declared = await post(alice, { image: `data:image/png;base64,${png}`, listing: listingId });
      expect(declared.status).toBe(400);
      expect(declared.body).toEqual({ image: [JPG_MESSAGE] });
      const renamed = await post(alice, { image: `data:image/jpeg;base64,${png}`, listing: listingId });
      expect(renamed.status).toBe(400);
      expect(renamed.body).toEqual({ image: [JPG_MESSAGE] });
    });

    test('refuses garbage and truncated JPEGs: decoded for real, not trusted by their header', async () => {
      const garbage = await post(alice, { image: Buffer.from([0xff, 0xd8, 0xff, 1, 2, 3, 4, 5, 6]).toString('base64'), listing: listingId });
      expect(garbage.status).toBe(400);
      expect(garbage.body).toEqual({ image: [messages.notAnImage] });
      const whole = await jpegImage(300, 200);
      const truncated = await post(alice, { image: whole.subarray(0, Math.floor(whole.length / 2)).toString('base64'), listing: listingId });
      expect(truncated.status).toBe(400);
      expect(Object.keys(truncated.body)).toEqual(['image']);
      const notBase64 = await post(alice, { image: '%%% not base64 %%%', listing: listingId });
      expect(notBase64.status).toBe(400);
      expect(Object.keys(notBase64.body)).toEqual(['image']);
    });

    test('refuses a photo over the configured size with the size in the message', async () => {
      const app = t.rebuild({ PHOTO_UPLOAD_MAX_MB: '0.01' });
      const agent = await memberAgent({ app, ctx: t.ctx }, { id: aliceId });
      const res = await agent.post('/api/v2/photos/').set('X-CSRFToken', agent.csrfToken).send({ image: (await noiseJpeg(20_000)).toString('base64'), listing: listingId });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ image: ['We can only accept JPG photos that are 0.01mb or less. Please try again with a different image.'] });
    });

    test.each([
      [{ listing: 1 }, 'image'],
      [{ image: 42, listing: 1 }, 'image'],
      [{ image: 'abcd' }, 'listing'],
      [{ image: 'abcd', listing: 'abc' }, 'listing'],
      [{ image: 'abcd', listing: -3 }, 'listing'],
      [{ image: 'abcd', listing: 1, title: 'x'.repeat(256) }, 'title'],
      [{ image: 'abcd', listing: 1, description: ['no'] }, 'description'],
    ])('bad input %j is a 400 naming %s', async (body, field) => {
      const res = await post(alice, body);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toContain(field);
    });

    test('a listing that does not exist is a 400 on listing', async () => {
      const res = await post(alice, { image: jpeg, listing: 999_999 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ listing: ['Invalid pk "999999" - object does not exist.'] });
    });

    test('anonymous uploads answer 401; with uploads switched off the endpoint is 404', async () => {
      const guest = guestAgent(t.app);
      expect((await post(guest, { image: jpeg, listing: listingId })).status).toBe(401);
      const off = t.rebuild({ FEATURE_PHOTO_UPLOAD: 'false' });
      const agent = await memberAgent({ app: off, ctx: t.ctx }, { id: aliceId });
      const res = await agent.post('/api/v2/photos/').set('X-CSRFToken', agent.csrfToken).send({ image: jpeg, listing: listingId });
      expect(res.status).toBe(404);
    });

    test('malformed JSON is a 400, not a 500', async () => {
      const res = await alice.post('/api/v2/photos/').set('X-CSRFToken', alice.csrfToken).set('Content-Type', 'application/json').send('{"image": ');
      expect(res.status).toBe(400);
    });
  });

  describe('lists', () => {
    let listing2: number;
    beforeAll(async () => {
      listing2 = await createListing(t.ctx.db);
      for (let i = 0; i < 30; i++) await createPhoto(t.ctx.db, { listing_id: listing2, creation_date: new Date(Date.UTC(2026, 0, 1, 0, i)) });
    });

    test('GET /api/v2/photos/?listing= pages 24 at a time, newest first', async () => {
      const res = await request(t.app).get(`/api/v2/photos/?listing=${listing2}`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(30);
      expect(res.body.results).toHaveLength(24);
      expect(new URL(res.body.next).searchParams.get('offset')).toBe('24');
      const dates = res.body.results.map((p: { creation_date: string }) => p.creation_date);
      expect([...dates].sort().reverse()).toEqual(dates);
      const second = await request(t.app).get(`/api/v2/photos/?listing=${listing2}&offset=24`);
      expect(second.body.results).toHaveLength(6);
      const oldest = await request(t.app).get(`/api/v2/photos/?listing=${listing2}&ordering=creation_date&limit=1`);
      expect(oldest.body.results[0].creation_date).toBe('2026-01-01T00:00:00.000Z');
    });

    test('GET /api/v2/photos/ without a listing pages 15 at a time', async () => {
      const res = await request(t.app).get('/api/v2/photos/');
      expect(res.body.results).toHaveLength(15);
    });

    test.each(['listing=abc', 'listing=-1', 'ordering=title', 'limit=-1', 'offset=x', 'limit=1000'])('bad query %s is a 400', async (q) => {
      const res = await request(t.app).get(`/api/v2/photos/?${q}`);
      expect(res.status).toBe(400);
    });

    test('GET /api/v2/photos/me lists only the member’s own photos', async () => {
      await createPhoto(t.ctx.db, { listing_id: listingId, profile_id: aliceId });
      const mine = await alice.get('/api/v2/photos/me');
      expect(mine.status).toBe(200);
      const ids = mine.body.results.map((p: { id: number }) => p.id);
      const owned = (await t.ctx.db('photos').where({ profile_id: aliceId }).select('id')).map((r) => r.id);
      expect(ids.sort()).toEqual(owned.sort());
      const bobs = await bob.get('/api/v2/photos/me/');
      expect(bobs.body).toMatchObject({ count: 0, results: [] });
      expect((await request(t.app).get('/api/v2/photos/me')).status).toBe(401);
    });
  });

  describe('DELETE /api/v2/photos/{id}/', () => {
    test('the owner deletes the photo and its files; anyone else gets 404 and nothing is lost', async () => {
      const created = await post(alice, { image: jpeg, listing: listingId });
      const row = await t.ctx.db('photos').where({ id: created.body.id }).first();
      const del = (agent: Agent, id: unknown) => agent.delete(`/api/v2/photos/${id}/`).set('X-CSRFToken', agent.csrfToken);

      expect((await del(bob, created.body.id)).status).toBe(404);
      expect(await t.ctx.storage.exists(row.image_key)).toBe(true);
      expect((await del(guestAgent(t.app), created.body.id)).status).toBe(401);
      // Not an id, or none an integer column holds: it names no photo (404, as DRF answers).
      expect((await del(alice, 'abc')).status).toBe(404);
      expect((await del(alice, -1)).status).toBe(404);
      expect((await del(alice, '123456789012345678901')).status).toBe(404);
      expect((await del(alice, 999_999)).status).toBe(404);

      expect((await del(alice, created.body.id)).status).toBe(204);
      expect(await t.ctx.db('photos').where({ id: created.body.id }).first()).toBeUndefined();
      expect(await t.ctx.storage.exists(row.image_key)).toBe(false);
      expect(fs.existsSync(path.join(mediaCacheDir(t.config), row.image_key))).toBe(false);
      expect((await request(t.app).get(`/media/${row.image_key}?w=340&h=340`)).status).toBe(404);
      expect((await del(alice, created.body.id)).status).toBe(404);
    });
  });
});
