import fs from 'node:fs';
import { createMember, createTestContext, memberAgent, type Agent, type TestContext } from '../../testing/test-app';
import { createListing } from '../../testing/fixtures';
import { waitFor } from '../../testing/wait-for';
import { appJobs } from '..';
import { jpegImage } from './test-images';
import { mediaCacheDir, renditionPath } from './renditions';
import { queueRenditionWarmUp, renditionSet, runWarmRenditionsJob, WARM_RENDITIONS_JOB, type WarmRenditionSet } from './warm-renditions-job';

// Renditions made by the media.warm-renditions job rather than in the upload's request: the
// uploads (a listing photo, a profile photo) answer with a job queued and no rendition made; a
// worker working the registry's entry, as a server process does, renders the set's sizes into
// the rendition store; a second run renders nothing; a job whose original is gone is done.
jest.setTimeout(120_000);

interface JobRow {
  id: string;
  state: string;
  data: { key: string; set: string };
  singleton_key: string | null;
}

describe('the media.warm-renditions job', () => {
  let t: TestContext;
  let alice: Agent;
  let listingId: number;

  const jobsOf = async (key: string): Promise<JobRow[]> =>
    (await t.ctx.db.raw(`SELECT id, state, data, singleton_key FROM pgboss.job WHERE name = ? AND data->>'key' = ? ORDER BY created_on`, [WARM_RENDITIONS_JOB, key])).rows;
  const renditionFiles = (key: string, set: WarmRenditionSet) => renditionSet(set).map((p) => renditionPath(mediaCacheDir(t.config), key, p));
  const present = (files: string[]) => files.filter((f) => fs.existsSync(f));
  const uploadPhoto = async (): Promise<string> => {
    const res = await alice.post('/api/v2/photos/').set('X-CSRFToken', alice.csrfToken).send({ image: (await jpegImage(900, 700)).toString('base64'), listing: listingId });
    expect(res.status).toBe(201);
    return (await t.ctx.db('photos').where({ id: res.body.id }).first('image_key')).image_key as string;
  };

  beforeAll(async () => {
    t = await createTestContext();
    alice = await memberAgent(t, await createMember(t.ctx));
    listingId = await createListing(t.ctx.db, { name: 'Bar Raval' });
  });
  afterAll(() => t.close());

  test('a photo upload answers with one job queued for its sizes and none rendered in the request', async () => {
    const key = await uploadPhoto();
    expect(present(renditionFiles(key, 'photo'))).toEqual([]);
    const jobs = await jobsOf(key);
    expect(jobs.map((j) => [j.state, j.data, j.singleton_key])).toEqual([['created', { key, set: 'photo' }, key]]);
  });

  test('a profile photo upload queues the avatar set', async () => {
    const res = await alice.patch('/api/v2/profiles/me/').set('X-CSRFToken', alice.csrfToken).send({ avatar: (await jpegImage(300, 300)).toString('base64') });
    expect(res.status).toBe(200);
    const key = res.body.avatar as string;
    expect(present(renditionFiles(key, 'avatar'))).toEqual([]);
    expect((await jobsOf(key)).map((j) => [j.state, j.data])).toEqual([['created', { key, set: 'avatar' }]]);
  });

  test('a second send for a key whose job still waits is the same job', async () => {
    const key = 'photos/warm-test/twice.jpg';
    await queueRenditionWarmUp(t.ctx, key, 'photo');
    await queueRenditionWarmUp(t.ctx, key, 'photo');
    expect(await jobsOf(key)).toHaveLength(1);
  });

  test('a send that fails is logged and the upload goes on', async () => {
    const warned: unknown[] = [];
    const logger = { ...t.ctx.logger, warn: (...args: unknown[]) => void warned.push(args) } as typeof t.ctx.logger;
    const jobs = { ...t.ctx.jobs, send: () => Promise.reject(new Error('the database is away')) };
    await expect(queueRenditionWarmUp({ logger, jobs }, 'photos/warm-test/lost.jpg', 'photo')).resolves.toBeUndefined();
    expect(warned).toHaveLength(1);
  });

  test('bad job data throws a clear error and touches nothing', async () => {
    for (const data of [null, 'photos/x.jpg', { key: '../etc/passwd.jpg', set: 'photo' }, { key: 'photos/x.txt', set: 'photo' }, { key: 'photos/x.jpg', set: 'hero' }, { key: 'photos/x.jpg', set: 'toString' }, { key: 7, set: 'avatar' }]) {
      await expect(runWarmRenditionsJob(t.ctx, data)).rejects.toThrow(`${WARM_RENDITIONS_JOB}: bad job data`);
    }
  });

  describe('worked as the server works it', () => {
    beforeAll(async () => {
      const job = appJobs.find((j) => j.name === WARM_RENDITIONS_JOB);
      expect(job).toBeDefined();
      await t.ctx.jobs.start();
      await t.ctx.jobs.work(job!.name, async (data) => void (await job!.run(t.ctx, data)), { pollingIntervalSeconds: 0.5 });
    });
    afterAll(() => t.ctx.jobs.stop());

    const settled = (key: string) => waitFor(`the job of ${key} to complete`, async () => {
      const jobs = await jobsOf(key);
      return jobs.length > 0 && jobs.every((j) => j.state === 'completed');
    }, 30_000, { everyMs: 100 });

    test('renders the set into the rendition store; a second run renders none again', async () => {
      const key = await uploadPhoto();
      await settled(key);
      const files = renditionFiles(key, 'photo');
      expect(present(files)).toEqual(files);
      const before = files.map((f) => fs.statSync(f).mtimeMs);

      // A retry, or a run after a process died once it had written them all.
      expect(await runWarmRenditionsJob(t.ctx, { key, set: 'photo' })).toEqual({ rendered: 0 });
      expect(files.map((f) => fs.statSync(f).mtimeMs)).toEqual(before);

      // A run after a process died half-way: only the size still missing is made.
      fs.rmSync(files[1]);
      expect(await runWarmRenditionsJob(t.ctx, { key, set: 'photo' })).toEqual({ rendered: 1 });
      expect(present(files)).toEqual(files);
      expect([files[0], files[2]].map((f) => fs.statSync(f).mtimeMs)).toEqual([before[0], before[2]]);
    });

    test('the jobs queued before the worker started ran too (the avatar upload above)', async () => {
      const key = (await t.ctx.db('profiles').whereNotNull('avatar').first('avatar')).avatar as string;
      await settled(key);
      expect(present(renditionFiles(key, 'avatar'))).toHaveLength(1);
    });

    test('a job for an original deleted before it ran is done, with nothing made', async () => {
      const key = 'photos/warm-test/deleted.jpg';
      await t.ctx.storage.put(key, await jpegImage(800, 600), 'image/jpeg');
      await t.ctx.storage.delete(key);
      await queueRenditionWarmUp(t.ctx, key, 'photo');
      await settled(key);
      expect((await jobsOf(key)).map((j) => j.state)).toEqual(['completed']);
      expect(fs.existsSync(renditionPath(mediaCacheDir(t.config), key, renditionSet('photo')[0]).replace(/\/[^/]+$/, ''))).toBe(false);
    });
  });

  test('an original deleted while its sizes were rendered leaves none of them behind', async () => {
    const key = 'photos/warm-test/deleted-meanwhile.jpg';
    await t.ctx.storage.put(key, await jpegImage(800, 600), 'image/jpeg');
    // The photo's removal lands between reading the original and writing the sizes: its purge
    // found nothing to remove, and the job is the one that must not leave them.
    const storage = { ...t.ctx.storage, exists: async () => false };
    expect(await runWarmRenditionsJob({ ...t.ctx, storage }, { key, set: 'photo' })).toEqual({ rendered: 0 });
    expect(present(renditionFiles(key, 'photo'))).toEqual([]);
  });
});
