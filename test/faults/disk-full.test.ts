import crypto from 'node:crypto';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { createMember, createTestContext, memberAgent, type Agent, type TestContext } from '../../server/testing/test-app';
import { createListing } from '../../server/testing/fixtures';
import { createSmallDisk, smallDiskMode, SMALL_DISK_BYTES, type SmallDisk } from '../../server/testing/small-disk';
import { mediaCacheDir } from '../../server/apps/media/api';
import { jpegImage, noiseJpeg } from '../../server/apps/media/test-images';
import { imageUrl } from '../../shared/format/image-url';
import { IMAGE_SIZES } from '../../shared/constants';

// Issue 26 item 4: the media disk fills. Every upload path answers 507 with a message a person
// understands (JSON for the API and the islands, the form again without JavaScript), leaves no
// file (half-written .tmp or final) and no row pointing at one, and works again once space is
// freed, without a restart. Renditions are served from memory when the cache disk is full.
// DATA_DIR/media and DATA_DIR/media-cache are each a 2 MB tmpfs when this process may mount one,
// or else writes under them fail with ENOSPC by fault injection (SMALL_DISK=fault-injection
// forces that way); the describe line says which.
jest.setTimeout(120_000);

const MODE = smallDiskMode();
const HOW = MODE === 'tmpfs' ? `a real ${SMALL_DISK_BYTES / 1024 / 1024} MB tmpfs` : 'fault injection: ENOSPC-throwing writes';
/** Room left on a "full" disk: less than any upload below, so each is cut off half-way. */
const ROOM = 16 * 1024;
const OUT_OF_SPACE = /out of (storage )?space/i;
const dataUrl = (b: Buffer) => `data:image/jpeg;base64,${b.toString('base64')}`;

describe(`uploads when the media disk is full (${HOW})`, () => {
  let t: TestContext;
  let media: SmallDisk;
  let cache: SmallDisk;
  let member: Agent;
  let memberId: number;
  let staff: Agent;
  let listingId: number;
  /** Noise does not compress: re-encoded it stays far larger than ROOM. */
  let bigJpeg: Buffer;

  beforeAll(async () => {
    t = await createTestContext({ FEATURE_ADS: 'true' });
    media = await createSmallDisk(path.join(t.tmpDir, 'media'), MODE);
    cache = await createSmallDisk(mediaCacheDir(t.config), MODE);
    const m = await createMember(t.ctx);
    memberId = m.id;
    member = await memberAgent(t, m);
    staff = await memberAgent(t, await createMember(t.ctx, { is_staff: true }));
    listingId = await createListing(t.ctx.db, { name: 'Bar Raval' });
    bigJpeg = await noiseJpeg(150_000);
  });
  afterAll(async () => {
    try {
      await media?.close();
    } finally {
      try {
        await cache?.close();
      } finally {
        await t?.close();
      }
    }
  });
  afterEach(async () => {
    await media.free();
    await cache.free();
  });

  const expectStorageFullJson = (res: request.Response) => {
    expect(res.status).toBe(507);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(res.body)).toEqual(['detail']);
    expect(res.body.detail).toMatch(OUT_OF_SPACE);
  };
  const postPhoto = () => member.post('/api/v2/photos/').set('X-CSRFToken', member.csrfToken).send({ image: dataUrl(bigJpeg), title: 'Patio', listing: listingId });

  test(`the disk is ${MODE}`, () => {
    expect(media.mode).toBe(MODE);
    expect(cache.mode).toBe(MODE);
  });

  test('a photo upload answers 507 in JSON, leaves no file and no row, and works once space is freed', async () => {
    await media.fill(ROOM);
    expectStorageFullJson(await postPhoto());
    expect(media.files()).toEqual([]);
    expect(await t.ctx.db('photos').where({ profile_id: memberId })).toEqual([]);
    // The same process, nothing restarted: space comes back and so do uploads.
    await media.free();
    const ok = await postPhoto();
    expect(ok.status).toBe(201);
    const row = await t.ctx.db('photos').where({ id: ok.body.id }).first();
    expect(media.files()).toEqual([row.image_key]);
  });

  test('a new avatar answers 507 and keeps the old one, file and all; it works once space is freed', async () => {
    const patch = (image: Buffer) => member.patch('/api/v2/profiles/me/').set('X-CSRFToken', member.csrfToken).send({ avatar: dataUrl(image) });
    const avatarOf = async () => (await t.ctx.db('profiles').where({ id: memberId }).first('avatar')).avatar as string | null;
    expect((await patch(await jpegImage(200, 200))).status).toBe(200);
    const old = await avatarOf();
    const before = media.files();
    await media.fill(ROOM);
    expectStorageFullJson(await patch(bigJpeg));
    expect(await avatarOf()).toBe(old);
    expect(media.files()).toEqual(before);
    expect(await t.ctx.storage.exists(old!)).toBe(true);
    await media.free();
    expect((await patch(bigJpeg)).status).toBe(200);
    expect(await avatarOf()).not.toBe(old);
    expect(await t.ctx.storage.exists((await avatarOf())!)).toBe(true);
  });

  test('the event image upload (/streams/image-upload/) answers 507 and keeps neither the image nor its thumbnail', async () => {
    const upload = () => member.post('/streams/image-upload/').set('X-CSRFToken', member.csrfToken).attach('file', bigJpeg, { filename: 'poster.jpg', contentType: 'image/jpeg' });
    const before = media.files();
    const sizes = await upload();
    expect(sizes.status).toBe(200);
    const bytesOf = async (url: string) => ((await t.ctx.storage.get(decodeURIComponent(new URL(url).pathname.replace(/^\/media\//, '')))) as Buffer).length;
    const [imageBytes, thumbBytes] = [await bytesOf(sizes.body.uploaded_image_url), await bytesOf(sizes.body.thumbnail_url)];
    expect(thumbBytes).toBeGreaterThan(5 * 4096);
    const kept = media.files();
    // Room for the image but not its thumbnail too: the one written must go as well.
    await media.fill(imageBytes + 4096 + Math.floor(thumbBytes / 2));
    expectStorageFullJson(await upload());
    expect(media.files()).toEqual(kept);
    await media.free();
    expect((await upload()).status).toBe(200);
    expect(media.files()).toHaveLength(before.length + 4);
  });

  describe('the add-event form with its image attached (no JavaScript)', () => {
    const day = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const fields = {
      title: 'Jazz on a full disk',
      description: 'Free concert.',
      venue_name: 'Trinity Bellwoods Park',
      address: '790 Queen St W',
      schedule_type: 'single_day',
      'single_day-date': day,
      'single_day-start_time': '7:00 PM',
      'single_day-end_time': '9:30 PM',
    };
    const postForm = (asJson: boolean) => {
      let req = member.post('/events/add/').field('csrfmiddlewaretoken', member.csrfToken);
      if (asJson) req = req.set('Accept', 'application/json');
      for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
      return req.attach('thumbnail', bigJpeg, { filename: 'poster.jpg', contentType: 'image/jpeg' });
    };
    const events = () => t.ctx.db('events').where({ title: fields.title });

    test('shows the form again with the message and its values; no event, no file; it saves once space is freed', async () => {
      const before = media.files();
      await media.fill(ROOM);
      const page = await postForm(false);
      expect(page.status).toBe(507);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toMatch(OUT_OF_SPACE);
      expect(page.text).toContain('action="/events/add/"');
      expect(page.text).toContain('value="Jazz on a full disk"');
      expect(page.text).not.toContain('Please correct the errors below');
      // The island's post (Accept: JSON) gets the API's answer.
      expectStorageFullJson(await postForm(true));
      expect(await events()).toEqual([]);
      expect(media.files()).toEqual(before);
      await media.free();
      const saved = await postForm(false);
      expect([saved.status, saved.headers.location]).toEqual([303, '/events/add/success/']);
      const [event] = await events();
      expect(await t.ctx.storage.exists(event.image_key)).toBe(true);
    });
  });

  test("the staff house-ad form shows the message beside its image and saves nothing", async () => {
    const ad = await sharp({ create: { width: 728, height: 90, channels: 3, background: '#123456' } }).png().toBuffer();
    const post = () => {
      let req = staff.post('/staff/ads/save/').field('csrfmiddlewaretoken', staff.csrfToken);
      const values = { name: 'Full disk sale', slot: 'leaderboard', link_url: 'https://advertiser.example/', alt_text: 'A sale', starts_on: '2020-01-01', ends_on: '', weight: '1' };
      for (const [k, v] of Object.entries(values)) req = req.field(k, v);
      return req.attach('image', ad, { filename: 'ad.png', contentType: 'image/png' });
    };
    const before = media.files();
    await media.fill(0);
    const page = await post();
    expect(page.status).toBe(507);
    expect(page.text).toMatch(OUT_OF_SPACE);
    expect(page.text).toContain('aria-describedby="image-error"');
    expect(await t.ctx.db('house_ads').where({ name: 'Full disk sale' })).toEqual([]);
    expect(media.files()).toEqual(before);
    await media.free();
    expect((await post()).status).toBe(303);
  });

  test('a rendition is served from memory when the cache disk is full, and cached again once space is freed', async () => {
    const key = 'seed/full-cache.jpg';
    // Noise, so its 610x610 rendition is far larger than the room left.
    await t.ctx.storage.put(key, await sharp(crypto.randomBytes(800 * 800 * 3), { raw: { width: 800, height: 800, channels: 3 } }).jpeg({ quality: 70 }).toBuffer());
    await cache.fill(ROOM);
    const url = imageUrl(key, 'square');
    const res = await request(t.app).get(url).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(res.body as Buffer).metadata();
    expect([meta.width, meta.height]).toEqual([IMAGE_SIZES.square.w, IMAGE_SIZES.square.h]);
    const cachedOfKey = () => cache.files().filter((f) => f.startsWith(`${key}/`));
    expect(cachedOfKey()).toEqual([]);
    expect(cache.files().filter((f) => f.endsWith('.tmp'))).toEqual([]);
    await cache.free();
    expect((await request(t.app).get(url)).status).toBe(200);
    expect(cachedOfKey()).toEqual([expect.stringMatching(/^seed\/full-cache\.jpg\/610x610-crop-q\d+\.jpg$/)]);
  });

  test('a photo upload still works when only the rendition cache is full: its sizes are made later, on request', async () => {
    await cache.fill(ROOM);
    const res = await postPhoto();
    expect(res.status).toBe(201);
    const row = await t.ctx.db('photos').where({ id: res.body.id }).first();
    expect(await t.ctx.storage.exists(row.image_key)).toBe(true);
    expect(cache.files().filter((f) => f.startsWith(`${row.image_key}/`) || f.endsWith('.tmp'))).toEqual([]);
    const square = await request(t.app).get(imageUrl(row.image_key, 'squareSmall'));
    expect(square.status).toBe(200);
    expect(square.headers['content-type']).toBe('image/jpeg');
  });
});
