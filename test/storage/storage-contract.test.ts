import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { unzipSync } from 'fflate';
import type { Readable } from 'node:stream';
import { createMember, createTestContext, memberAgent, type Agent, type TestContext } from '../../server/testing/test-app';
import { createListing } from '../../server/testing/fixtures';
import { createSmallDisk } from '../../server/testing/small-disk';
import { startS3TestServer, type S3TestServer } from '../../server/testing/s3-test-server';
import { jpegImage } from '../../server/apps/media/test-images';
import { renditionKey, renditionStore } from '../../server/apps/media/renditions';
import { runWarmRenditionsJob } from '../../server/apps/media/warm-renditions-job';
import { renditionParamsFor } from '../../server/apps/media/rendition-params';
import { purgeDueAccounts } from '../../server/apps/account-deletion/purge-job';
import { EXPORT_PATH } from '../../server/apps/member-data/api';
import { imageUrl } from '../../shared/format/image-url';

// The storage contract (issue 30): one suite, run against the local directory and against an S3
// bucket (s3rver, started here; see s3-test-server.ts). Both must store whole or not at all,
// read ranges, answer a missing key the same way, and carry the features that reach files (the
// /media endpoint, uploads, the member data export, the account purge) without knowing which
// store they talk to.
jest.setTimeout(120_000);

const DAY = 24 * 3600 * 1000;
const dataUrl = (b: Buffer) => `data:image/jpeg;base64,${b.toString('base64')}`;

function binary(res: request.Response, done: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Every file under dir, .tmp files included (a half-written one must not stay), relative to dir. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)))
    .sort();
}

describe.each(['local', 's3'] as const)('media storage: %s', (backend) => {
  let t: TestContext;
  let s3: S3TestServer | null = null;

  beforeAll(async () => {
    if (backend === 's3') s3 = await startS3TestServer();
    t = await createTestContext(s3?.env ?? {});
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  /** Every object (or file) the store holds under prefix, by key. */
  const keysUnder = async (prefix: string): Promise<string[]> =>
    s3 ? s3.keys(`${prefix}/`) : filesUnder(path.join(t.config.mediaDir, prefix)).map((f) => `${prefix}/${f}`);

  /** Makes every write to the media store fail half-way; answers how to undo it. */
  async function breakUploads(): Promise<() => Promise<void>> {
    const server = s3;
    if (server) {
      server.cutUploads(true);
      return async () => server.cutUploads(false);
    }
    // A full disk: what fits is written, then ENOSPC.
    const disk = await createSmallDisk(t.config.mediaDir, 'fault-injection');
    await disk.fill(100);
    return () => disk.close();
  }

  test('the config chose the store under test', () => {
    expect(t.config.media.store).toBe(backend);
    expect(Boolean(t.ctx.storage.renditions)).toBe(backend === 's3');
  });

  test('put then get, head and exists answer the same bytes; a new put replaces them and the ETag', async () => {
    const body = Buffer.from('0123456789abcdef'.repeat(64));
    await t.ctx.storage.put('contract/put.bin', body, 'application/octet-stream');
    expect(await t.ctx.storage.get('contract/put.bin')).toEqual(body);
    expect(await t.ctx.storage.exists('contract/put.bin')).toBe(true);
    const info = await t.ctx.storage.head('contract/put.bin');
    expect(info).toEqual({ size: body.length, etag: expect.stringMatching(/^"[A-Za-z0-9_-]+"$/) });
    const whole = await t.ctx.storage.read('contract/put.bin');
    expect(whole).toMatchObject({ size: body.length, etag: info!.etag, range: null });
    expect(await readAll(whole!.body)).toEqual(body);

    await t.ctx.storage.put('contract/put.bin', Buffer.from('shorter'));
    expect(await t.ctx.storage.get('contract/put.bin')).toEqual(Buffer.from('shorter'));
    expect((await t.ctx.storage.head('contract/put.bin'))!.etag).not.toBe(info!.etag);
  });

  test('reads a byte range, with the size of the whole', async () => {
    const body = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    await t.ctx.storage.put('contract/range.bin', body);
    const part = await t.ctx.storage.read('contract/range.bin', { start: 100, end: 199 });
    expect(part).toMatchObject({ size: 1000, range: { start: 100, end: 199 } });
    expect(await readAll(part!.body)).toEqual(body.subarray(100, 200));
  });

  test('delete removes the object; deleting it again, or a key never stored, is no error', async () => {
    await t.ctx.storage.put('contract/gone.bin', Buffer.from('x'));
    await t.ctx.storage.delete('contract/gone.bin');
    expect(await t.ctx.storage.exists('contract/gone.bin')).toBe(false);
    await expect(t.ctx.storage.delete('contract/gone.bin')).resolves.toBeUndefined();
  });

  test('deleteUnder removes every object under a prefix and nothing beside it', async () => {
    await t.ctx.storage.put('contract/dir/a.jpg/one.jpg', Buffer.from('1'));
    await t.ctx.storage.put('contract/dir/a.jpg/two.jpg', Buffer.from('2'));
    await t.ctx.storage.put('contract/dir/a.jpg.other', Buffer.from('3'));
    await t.ctx.storage.deleteUnder('contract/dir/a.jpg');
    expect(await keysUnder('contract/dir')).toEqual(['contract/dir/a.jpg.other']);
  });

  test('a missing object is null to get, head and read, false to exists', async () => {
    expect(await t.ctx.storage.get('contract/missing.bin')).toBeNull();
    expect(await t.ctx.storage.head('contract/missing.bin')).toBeNull();
    expect(await t.ctx.storage.read('contract/missing.bin')).toBeNull();
    expect(await t.ctx.storage.read('contract/missing.bin', { start: 0, end: 9 })).toBeNull();
    expect(await t.ctx.storage.exists('contract/missing.bin')).toBe(false);
    expect((await request(t.app).get('/media/contract/missing.jpg')).status).toBe(404);
  });

  test('a write cut off half-way rejects and leaves nothing under the key', async () => {
    const restore = await breakUploads();
    try {
      await expect(t.ctx.storage.put('contract/cut/half.jpg', Buffer.alloc(64 * 1024, 7))).rejects.toThrow();
    } finally {
      await restore();
    }
    expect(await t.ctx.storage.exists('contract/cut/half.jpg')).toBe(false);
    expect(await keysUnder('contract/cut')).toEqual([]);
  });

  describe('/media/ over the store', () => {
    let original: Buffer;
    beforeAll(async () => {
      original = await jpegImage(900, 600);
      await t.ctx.storage.put('contract/media/photo.jpg', original, 'image/jpeg');
    });

    test('streams the original with its ETag, and 304 to If-None-Match', async () => {
      const res = await request(t.app).get('/media/contract/media/photo.jpg');
      expect(res.status).toBe(200);
      expect(res.headers['accept-ranges']).toBe('bytes');
      expect(res.headers['content-length']).toBe(String(original.length));
      expect(res.headers.etag).toBe((await t.ctx.storage.head('contract/media/photo.jpg'))!.etag);
      expect(Buffer.compare(res.body as Buffer, original)).toBe(0);
      const again = await request(t.app).get('/media/contract/media/photo.jpg').set('If-None-Match', res.headers.etag);
      expect(again.status).toBe(304);
    });

    test('answers a Range with 206 and those bytes, an unsatisfiable one with 416, and a stale If-Range whole', async () => {
      const part = await request(t.app).get('/media/contract/media/photo.jpg').set('Range', 'bytes=10-109').buffer(true).parse(binary);
      expect(part.status).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 10-109/${original.length}`);
      expect(Buffer.compare(part.body as Buffer, original.subarray(10, 110))).toBe(0);
      const tail = await request(t.app).get('/media/contract/media/photo.jpg').set('Range', 'bytes=-50').buffer(true).parse(binary);
      expect(tail.status).toBe(206);
      expect(Buffer.compare(tail.body as Buffer, original.subarray(original.length - 50))).toBe(0);
      const beyond = await request(t.app).get('/media/contract/media/photo.jpg').set('Range', `bytes=${original.length + 10}-`);
      expect(beyond.status).toBe(416);
      expect(beyond.headers['content-range']).toBe(`bytes */${original.length}`);
      const stale = await request(t.app).get('/media/contract/media/photo.jpg').set('Range', 'bytes=0-9').set('If-Range', '"another-version"');
      expect(stale.status).toBe(200);
      expect(stale.headers['content-length']).toBe(String(original.length));
    });

    test('a rendition is made once and kept in the store, then served from it with Range too', async () => {
      const url = imageUrl('contract/media/photo.jpg', 'squareSmall');
      const stored = renditionKey('contract/media/photo.jpg', renditionParamsFor('squareSmall'));
      expect(await renditionStore(t.ctx).exists(stored)).toBe(false);
      const first = await request(t.app).get(url);
      expect(first.status).toBe(200);
      const kept = await renditionStore(t.ctx).head(stored);
      expect(kept).toEqual({ size: (first.body as Buffer).length, etag: first.headers.etag });
      if (s3) expect(await s3.keys('renditions/contract/media/photo.jpg/')).toEqual([`renditions/${stored}`]);
      const second = await request(t.app).get(url).set('Range', 'bytes=0-1');
      expect(second.status).toBe(206);
      expect(second.headers.etag).toBe(first.headers.etag);
      expect(Buffer.compare(second.body as Buffer, (first.body as Buffer).subarray(0, 2))).toBe(0);
    });
  });

  describe("a member's photos", () => {
    let listing: number;
    beforeAll(async () => {
      listing = await createListing(t.ctx.db, { name: `Contract Cafe ${backend}` });
    });
    const upload = (agent: Agent, image: Buffer) => agent.post('/api/v2/photos/').set('X-CSRFToken', agent.csrfToken).send({ image: dataUrl(image), title: 'Patio', listing });
    const photoRows = (memberId: number) => t.ctx.db('photos').where({ profile_id: memberId }).select('image_key');

    test('an upload cut off half-way fails, with no row and no object', async () => {
      const m = await createMember(t.ctx);
      const agent = await memberAgent(t, m);
      const before = await keysUnder('photos');
      const restore = await breakUploads();
      let res: request.Response;
      try {
        res = await upload(agent, await jpegImage(1200, 800));
      } finally {
        await restore();
      }
      // A full disk is 507 Insufficient Storage; a connection cut is a server error.
      expect(res.status).toBe(backend === 'local' ? 507 : 500);
      expect(await photoRows(m.id)).toEqual([]);
      expect(await keysUnder('photos')).toEqual(before);
    });

    test('when the row cannot be written, the object already stored is deleted', async () => {
      const m = await createMember(t.ctx);
      const agent = await memberAgent(t, m);
      const before = await keysUnder('avatars');
      // The avatar's row update fails after its file is in the store (a constraint, a lost connection).
      await t.ctx.db.raw(`CREATE FUNCTION contract_refuse_avatar() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
      await t.ctx.db.raw(`CREATE TRIGGER contract_refuse_avatar BEFORE UPDATE OF avatar ON profiles FOR EACH ROW WHEN (NEW.id = ${m.id}) EXECUTE FUNCTION contract_refuse_avatar()`);
      try {
        const res = await agent.patch('/api/v2/profiles/me/').set('X-CSRFToken', agent.csrfToken).send({ avatar: dataUrl(await jpegImage(300, 300)) });
        expect(res.status).toBe(500);
      } finally {
        await t.ctx.db.raw('DROP TRIGGER contract_refuse_avatar ON profiles');
        await t.ctx.db.raw('DROP FUNCTION contract_refuse_avatar()');
      }
      expect((await t.ctx.db('profiles').where({ id: m.id }).first('avatar')).avatar).toBeNull();
      expect(await keysUnder('avatars')).toEqual(before);
    });

    test('the data export holds the stored photo, and the account purge deletes it and its renditions from the store', async () => {
      const m = await createMember(t.ctx);
      const agent = await memberAgent(t, m);
      const res = await upload(agent, await jpegImage(1200, 800));
      expect(res.status).toBe(201);
      const [{ image_key: key }] = await photoRows(m.id);
      const bytes = (await t.ctx.storage.get(key))!;
      expect(bytes).not.toBeNull();
      // The upload queued its sizes' warm-up (media.warm-renditions); run as a worker would, it
      // makes them in the rendition store, ahead of the first visitor.
      await runWarmRenditionsJob(t.ctx, { key, set: 'photo' });
      const rendition = renditionKey(key, renditionParamsFor('squareSmall'));
      expect(await renditionStore(t.ctx).exists(rendition)).toBe(true);

      const download = await agent.get(EXPORT_PATH).buffer(true).parse(binary);
      expect(download.status).toBe(200);
      const files = unzipSync(new Uint8Array(download.body as Buffer));
      const inZip = Object.entries(files).filter(([name]) => name.startsWith('photos/') && name.endsWith('.jpg'));
      expect(inZip).toHaveLength(1);
      expect(Buffer.compare(Buffer.from(inZip[0][1]), bytes)).toBe(0);

      const requested = new Date();
      const form = await agent.post('/accounts/delete/').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, password: m.password, content: 'remove' });
      expect(form.status).toBe(303);
      const purged = await purgeDueAccounts({ ...t.ctx, now: () => new Date(requested.getTime() + 7 * DAY + 60_000) });
      expect(purged.map((p) => p.profileId)).toContain(m.id);
      expect(await t.ctx.storage.exists(key)).toBe(false);
      expect(await renditionStore(t.ctx).exists(rendition)).toBe(false);
      if (s3) {
        expect(await s3.keys(key)).toEqual([]);
        expect(await s3.keys(`renditions/${key}/`)).toEqual([]);
      }
    });
  });
});
