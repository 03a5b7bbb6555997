import request from 'supertest';
import { jest } from '@jest/globals';
import { createMember, guestAgent, memberAgent, type Agent } from '../../testing/test-app';
import { postMultipart, staffSuite } from '../../testing/staff-suite';
import { jpegImage } from '../media/test-images';
import { StorageFullError } from '../../storage/storage-full';
import { oldSlugsFromAuditLog } from '../../../migrations/20261130000700_old_slugs';
import { recentStaffActions } from '../staff-audit/audit-log-queries';
import { youtubeIdOf } from './youtube';

// Staff add and change videos at /staff/videos/: the YouTube id (or an address parsed to it),
// title, category, and an image uploaded through the upload pipeline, or YouTube's still only
// where the operator allows outside requests. Published at once, audited, purged; bad input a
// 400 naming the field with what was typed kept, and nothing saved.

describe('youtubeIdOf', () => {
  test.each([
    ['dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['  dQw4w9WgXcQ ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s', 'dQw4w9WgXcQ'],
    ['youtube.com/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://m.youtube.com/watch?feature=share&v=a-B_c1D2e3F', 'a-B_c1D2e3F'],
    ['https://youtu.be/dQw4w9WgXcQ?si=xyz', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/shorts/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/live/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
  ])('%s is %s', (input, id) => expect(youtubeIdOf(input)).toBe(id));

  test.each(['dQw4w9WgXc', 'dQw4w9WgXcQQ', 'dQw4w9WgX!Q', 'https://vimeo.com/dQw4w9WgXcQ', 'https://www.youtube.com/watch?v=short', 'https://www.youtube.com/@torontoguide', 'https://evil.example/watch?v=dQw4w9WgXcQ', 'javascript:alert(1)', ''])(
    '%s is not a video',
    (input) => expect(youtubeIdOf(input)).toBeNull(),
  );
});

describe('staff video pages', () => {
  const desk = staffSuite();
  let image: Buffer;
  let food: number;
  let music: number;

  beforeAll(async () => {
    image = await jpegImage(640, 360);
    [food, music] = await Promise.all(
      [['Food & Drink', 'food-and-drink'], ['Music', 'music']].map(async ([name, slug]) => Number((await desk.t.ctx.db('video_categories').insert({ name, slug }).returning('id'))[0].id)),
    );
  });

  /** The form as a browser sends it: multipart, the CSRF token first. */
  const postForm = (as: Agent, fields: Record<string, string>, file: Buffer | null = image) =>
    postMultipart(as, '/staff/videos/save/', fields, file && { field: 'image', data: file, filename: 'still.jpg', contentType: 'image/jpeg' });
  const videoTitled = (title: string) => desk.t.ctx.db('videos').where({ title }).first('id', 'slug', 'youtube_code', 'category_id', 'image_key', 'description');

  test('a new video from a YouTube address, with an uploaded image: published at once, audited, purged; then changed', async () => {
    const announce = jest.spyOn(desk.t.ctx.changes, 'announce');
    const res = await postForm(desk.editor, { youtube: 'https://youtu.be/dQw4w9WgXcQ', title: 'Night market walk', slug: '', description: 'Stalls at dusk.', category: String(food) });
    expect(res.status).toBe(303);
    const v = await videoTitled('Night market walk');
    expect(v).toMatchObject({ slug: 'night-market-walk', youtube_code: 'dQw4w9WgXcQ', category_id: food, description: 'Stalls at dusk.' });
    expect(v.image_key).toMatch(/^uploads\/m\d+\/.+\.jpg$/);
    expect(res.headers.location).toBe(`/staff/videos/?saved=${v.id}`);
    expect(announce).toHaveBeenLastCalledWith({ subject: `video:${v.id}`, paths: ['/videos/', '/videos/night-market-walk/', '/videos/category/food-and-drink/'], keys: [`video-${v.id}`, 'videos'] });

    const pub = await request(desk.t.app).get('/videos/night-market-walk/').expect(200);
    expect(pub.text).toContain('Night market walk');
    expect(pub.headers['surrogate-key']).toBe(`video-${v.id} videos`);
    expect((await request(desk.t.app).get('/videos/').expect(200)).text).toContain('href="/videos/night-market-walk/"');
    expect((await desk.editor.get('/staff/videos/').expect(200)).text).toContain(`href="/staff/videos/${v.id}/">Night market walk</a>`);

    // A change without a file keeps the image; the old address and channel are purged too.
    const edit = await postForm(desk.editor, { id: String(v.id), youtube: 'dQw4w9WgXcQ', title: 'Night market walk', slug: 'night-market', description: 'Stalls at dusk.', category: String(music) }, null);
    expect(edit.status).toBe(303);
    const after = await videoTitled('Night market walk');
    expect(after).toMatchObject({ slug: 'night-market', category_id: music, image_key: v.image_key });
    expect(announce).toHaveBeenLastCalledWith(expect.objectContaining({ paths: ['/videos/', '/videos/night-market/', '/videos/category/music/', '/videos/night-market-walk/', '/videos/category/food-and-drink/'] }));
    announce.mockRestore();
    const audit = await recentStaffActions(desk.t.ctx.db, { subjectType: 'video', subjectId: v.id });
    expect(audit.map((a) => a.action)).toEqual(['video.update', 'video.create']);
    expect(audit[0].detail).toMatchObject({ slug: 'night-market', old_slug: 'night-market-walk', category: 'music' });
    expect(audit[1].detail).toMatchObject({ youtube_code: 'dQw4w9WgXcQ', new_image: 'upload' });
    const form = await desk.editor.get(`/staff/videos/${v.id}/`).expect(200);
    expect(form.text).toContain('value="night-market"');
  });

  test('a changed slug keeps the old address as a 301 to the new one, also after a second change (A → B → C)', async () => {
    const guest = request(desk.t.app);
    await postForm(desk.editor, { youtube: 'abcdefghijk', title: 'Ferry to the island', slug: 'ferry-a', category: String(food) }).expect(303);
    const { id } = await videoTitled('Ferry to the island');
    const rename = (slug: string) => postForm(desk.editor, { id: String(id), youtube: 'abcdefghijk', title: 'Ferry to the island', slug, category: String(food) }, null).expect(303);
    await rename('ferry-b');
    const once = await guest.get('/videos/ferry-a/').expect(301);
    expect(once.headers.location).toBe('/videos/ferry-b/');
    await rename('ferry-c');
    // Both old addresses go straight to the current one, keeping the query.
    for (const old of ['ferry-a', 'ferry-b']) expect((await guest.get(`/videos/${old}/?utm_source=feed`).expect(301)).headers.location).toBe('/videos/ferry-c/?utm_source=feed');
    expect((await guest.get('/videos/ferry-c/').expect(200)).text).toContain('Ferry to the island');

    // Back to an old slug: it is the video's page again, and the slug it left leads to it.
    await rename('ferry-a');
    await guest.get('/videos/ferry-a/').expect(200);
    expect((await guest.get('/videos/ferry-c/').expect(301)).headers.location).toBe('/videos/ferry-a/');
    // Another video may take a slug this one left: its own page, no longer a redirect.
    await postForm(desk.editor, { youtube: 'bcdefghijkl', title: 'Ferry at night', slug: 'ferry-b', category: String(food) }).expect(303);
    expect((await guest.get('/videos/ferry-b/').expect(200)).text).toContain('Ferry at night');
    // A scheduled video's old address leads nowhere yet: a 404, as its page is.
    await desk.t.ctx.db('videos').where({ id }).update({ date_published: new Date(Date.now() + 86_400_000) });
    await guest.get('/videos/ferry-c/').expect(404);
    await guest.get('/videos/never-was/').expect(404);
  });

  test('slug changes staff made before old addresses were kept are read back from the audit log', async () => {
    const guest = request(desk.t.app);
    await postForm(desk.editor, { youtube: 'defghijklmn', title: 'Streetcar ride', slug: 'car-a', category: String(food) }).expect(303);
    const { id } = await videoTitled('Streetcar ride');
    for (const slug of ['car-b', 'car-c']) await postForm(desk.editor, { id: String(id), youtube: 'defghijklmn', title: 'Streetcar ride', slug, category: String(food) }, null).expect(303);
    // As the database was before the migration: the audit log has the old slugs, nothing else does.
    await desk.t.ctx.db('old_slugs').del();
    await guest.get('/videos/car-a/').expect(404);
    await oldSlugsFromAuditLog(desk.t.ctx.db);
    for (const old of ['car-a', 'car-b']) expect((await guest.get(`/videos/${old}/`).expect(301)).headers.location).toBe('/videos/car-c/');
    expect(await desk.t.ctx.db('old_slugs').where({ slug: 'car-c' })).toEqual([]);
  });

  test('bad input: 400 naming each field, what was typed kept, nothing saved', async () => {
    const res = await postForm(desk.editor, { youtube: 'https://vimeo.com/12345', title: '', slug: 'Bad Slug', description: 'Kept text', category: '' }, null);
    expect(res.status).toBe(400);
    for (const field of ['youtube', 'title', 'category']) expect(res.text).toContain(`data-field-error="${field}"`);
    expect(res.text).toContain('value="https://vimeo.com/12345"');
    expect(res.text).toContain('>Kept text</textarea>');
    expect(res.text).toContain('aria-invalid="true" aria-describedby="youtube-error"');

    const noImage = await postForm(desk.editor, { youtube: 'abcdefghijk', title: 'No image here', category: String(food) }, null);
    expect(noImage.status).toBe(400);
    expect(noImage.text).toContain('data-field-error="image">Choose an image for the video.');
    const notPicture = await postForm(desk.editor, { youtube: 'abcdefghijk', title: 'No image here', category: String(food) }, Buffer.from('not a picture'));
    expect(notPicture.status).toBe(400);
    expect(notPicture.text).toContain('data-field-error="image"');
    const noSuchCategory = await postForm(desk.editor, { youtube: 'abcdefghijk', title: 'No image here', category: '999999' });
    expect(noSuchCategory.status).toBe(400);
    expect(noSuchCategory.text).toContain('data-field-error="category"');
    expect(await videoTitled('No image here')).toBeUndefined();

    await postForm(desk.editor, { youtube: 'abcdefghijk', title: 'Taken', slug: 'taken-address', category: String(food) }).expect(303);
    const dup = await postForm(desk.editor, { youtube: 'abcdefghijk', title: 'Taken again', slug: 'taken-address', category: String(food) });
    expect(dup.status).toBe(400);
    expect(dup.text).toContain('data-field-error="slug">Another video has this address');
    expect(await videoTitled('Taken again')).toBeUndefined();
  });

  test('the media storage full: 507 with the message beside the image, what was typed kept, nothing saved', async () => {
    const put = jest.spyOn(desk.t.ctx.storage, 'put').mockRejectedValueOnce(new StorageFullError('uploads/full.jpg'));
    try {
      const res = await postForm(desk.editor, { youtube: 'cdefghijklm', title: 'Full disk video', category: String(food) });
      expect(res.status).toBe(507);
      expect(res.text).toMatch(/data-field-error="image">[^<]*out of (storage )?space/i);
      expect(res.text).toContain('value="Full disk video"');
      expect(await videoTitled('Full disk video')).toBeUndefined();
    } finally {
      put.mockRestore();
    }
    expect((await postForm(desk.editor, { youtube: 'cdefghijklm', title: 'Full disk video', category: String(food) })).status).toBe(303);
  });

  test("YouTube's still: refused while the operator has not allowed outside requests, fetched once where allowed", async () => {
    const fetchSpy = jest.spyOn(globalThis, 'fetch');
    const off = await postForm(desk.editor, { youtube: 'dQw4w9WgXcQ', title: 'Still please', category: String(food), image_source: 'youtube' }, null);
    expect(off.status).toBe(400);
    expect(off.text).toContain('data-field-error="image">This site makes no requests to YouTube: upload an image.');
    expect(fetchSpy).not.toHaveBeenCalled();
    expect((await desk.editor.get('/staff/videos/new/')).text).not.toContain('value="youtube"');

    desk.t.ctx.config.videos.thumbnailsFromYoutube = true;
    try {
      expect((await desk.editor.get('/staff/videos/new/')).text).toContain('name="image_source" value="youtube" checked');
      fetchSpy.mockResolvedValueOnce(new Response(new Uint8Array(image), { status: 200, headers: { 'content-type': 'image/jpeg' } }));
      const on = await postForm(desk.editor, { youtube: 'dQw4w9WgXcQ', title: 'Still please', category: String(food), image_source: 'youtube' }, null);
      expect(on.status).toBe(303);
      expect(String(fetchSpy.mock.calls[0][0])).toBe('https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg');
      const v = await videoTitled('Still please');
      expect(v.image_key).toMatch(/^uploads\/m\d+\/.+\.jpg$/);
      expect((await recentStaffActions(desk.t.ctx.db, { subjectType: 'video', subjectId: v.id }))[0].detail).toMatchObject({ new_image: 'youtube' });

      // YouTube not answering with an image: refused on the image field, nothing saved.
      fetchSpy.mockResolvedValueOnce(new Response('nope', { status: 404, headers: { 'content-type': 'text/html' } }));
      const missing = await postForm(desk.editor, { youtube: 'zzzzzzzzzzz', title: 'No still', category: String(food), image_source: 'youtube' }, null);
      expect(missing.status).toBe(400);
      expect(missing.text).toContain('data-field-error="image">YouTube has no still');
      expect(await videoTitled('No still')).toBeUndefined();
    } finally {
      desk.t.ctx.config.videos.thumbnailsFromYoutube = false;
      fetchSpy.mockRestore();
    }
  });

  test('staff only, with the CSRF token', async () => {
    const guest = guestAgent(desk.t.app);
    expect((await guest.get('/staff/videos/')).status).toBe(302);
    expect((await postForm(guest, { youtube: 'abcdefghijk', title: 'Guest video', category: String(food) })).status).toBe(302);
    const member = await memberAgent(desk.t, await createMember(desk.t.ctx));
    expect((await member.get('/staff/videos/new/')).status).toBe(403);
    expect((await postForm(member, { youtube: 'abcdefghijk', title: 'Member video', category: String(food) })).status).toBe(403);
    const noToken = desk.editor.post('/staff/videos/save/').field('youtube', 'abcdefghijk').field('title', 'Tokenless video').field('category', String(food)).attach('image', image, 'still.jpg');
    expect((await noToken).status).toBe(403);
    expect(await desk.t.ctx.db('videos').whereIn('title', ['Guest video', 'Member video', 'Tokenless video'])).toEqual([]);
    expect((await desk.editor.get('/staff/videos/999999/')).status).toBe(404);
  });
});
