import sharp from 'sharp';
import request from 'supertest';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type TestContext } from '../../testing/test-app';
import { jpegImage, jpegWithGps, pngImage } from '../media/test-images';
import { uploadKeyFromUrl } from './service';

// The projects' testTimeout in jest.config.ts is not applied (jest reads it only at the top
// level); a fresh database per file and image work need more than 5 s on a busy machine.
jest.setTimeout(60_000);

describe('POST /streams/image-upload/', () => {
  let t: TestContext;
  let member: Agent;
  let memberIdValue: number;
  const upload = (agent: Agent) => agent.post('/streams/image-upload/').set('X-CSRFToken', agent.csrfToken);

  beforeAll(async () => {
    t = await createTestContext();
    const m = await createMember(t.ctx);
    memberIdValue = m.id;
    member = await memberAgent(t, m);
  });
  afterAll(() => t.close());

  const fetchMedia = async (url: string) => {
    const res = await request(t.app).get(new URL(url).pathname);
    expect(res.status).toBe(200);
    return sharp(res.body).metadata();
  };

  test('stores the image and an aspect-fill thumbnail covering the 300x200 box', async () => {
    const res = await upload(member)
      .field('box_width', '300')
      .field('box_height', '200')
      .field('cropping_mode', 'aspect-fill')
      .attach('file', await jpegImage(1000, 1000), { filename: 'square.JPG', contentType: 'image/jpeg' });
    expect(res.status).toBe(200);
    expect(res.body.thumbnail_dimensions).toEqual({ width: 300, height: 300 });
    expect(res.body.uploaded_image_url).toMatch(/^http:\/\/localhost:\d+\/media\/uploads\/m\d+\/.+\.jpg$/);
    const original = await fetchMedia(res.body.uploaded_image_url);
    expect([original.width, original.height]).toEqual([1000, 1000]);
    const thumb = await fetchMedia(res.body.thumbnail_url);
    expect([thumb.width, thumb.height]).toEqual([300, 300]);
  });

  test('defaults to the 300x200 box; a wide image overflows it sideways', async () => {
    const res = await upload(member).attach('image', await jpegImage(800, 200), { filename: 'wide.jpeg', contentType: 'image/jpeg' });
    expect(res.status).toBe(200);
    expect(res.body.thumbnail_dimensions).toEqual({ width: 800, height: 200 });
  });

  test('turns photos upright and strips their EXIF and GPS', async () => {
    const res = await upload(member).attach('file', await jpegWithGps(60, 40, 6), { filename: 'phone.jpg', contentType: 'image/jpeg' });
    expect(res.status).toBe(200);
    const meta = await fetchMedia(res.body.uploaded_image_url);
    expect([meta.width, meta.height]).toEqual([40, 60]);
    expect(meta.exif).toBeUndefined();
  });

  test('keeps a transparent PNG as PNG', async () => {
    const res = await upload(member).attach('file', await pngImage(60, 30), { filename: 'logo.png', contentType: 'image/png' });
    expect(res.status).toBe(200);
    expect(res.body.uploaded_image_url).toMatch(/\.png$/);
  });

  test.each([
    ['notes.pdf', 'application/pdf', '* Unsupported file type ".pdf"'],
    ['archive.tar.gz', 'image/jpeg', '* Unsupported file type ".gz"'],
    ['noextension', 'image/jpeg', '* Unsupported file type "."'],
  ])('an unsupported extension (%s) answers the uploader’s message', async (filename, contentType, message) => {
    const res = await upload(member).attach('file', await jpegImage(10, 10), { filename, contentType });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ image: [message] });
  });

  test('accepts only image/* and only decodable images', async () => {
    const notImage = await upload(member).attach('file', await jpegImage(10, 10), { filename: 'a.jpg', contentType: 'text/plain' });
    expect(notImage.status).toBe(400);
    expect(Object.keys(notImage.body)).toEqual(['image']);
    const garbage = await upload(member).attach('file', Buffer.from('GIF89a but not really'), { filename: 'a.gif', contentType: 'image/gif' });
    expect(garbage.status).toBe(400);
    expect(garbage.body.image[0]).toMatch(/valid image/);
  });

  test('missing file, bad box sizes, two files and oversize files are 4xx, never 500', async () => {
    const none = await upload(member).field('box_width', '300');
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ image: ['No file was submitted.'] });
    const badBox = await upload(member).field('box_width', '-1').attach('file', await jpegImage(10, 10), { filename: 'a.jpg', contentType: 'image/jpeg' });
    expect(badBox.status).toBe(400);
    expect(Object.keys(badBox.body)).toEqual(['box_width']);
    const badMode = await upload(member).field('cropping_mode', 'stretch').attach('file', await jpegImage(10, 10), { filename: 'a.jpg', contentType: 'image/jpeg' });
    expect(Object.keys(badMode.body)).toEqual(['cropping_mode']);
    const two = await upload(member)
      .attach('a', await jpegImage(10, 10), { filename: 'a.jpg', contentType: 'image/jpeg' })
      .attach('b', await jpegImage(10, 10), { filename: 'b.jpg', contentType: 'image/jpeg' });
    expect(two.status).toBe(400);
    const huge = await upload(member).attach('file', Buffer.alloc(11 * 1024 * 1024, 1), { filename: 'big.jpg', contentType: 'image/jpeg' });
    expect(huge.status).toBe(413);
  });

  test('guests get 401 and no file is read', async () => {
    const res = await upload(guestAgent(t.app)).attach('file', await jpegImage(10, 10), { filename: 'a.jpg', contentType: 'image/jpeg' });
    expect(res.status).toBe(401);
  });

  test('an uploaded URL maps back to its key only for the member who uploaded it', () => {
    const site = t.config.site.url;
    expect(uploadKeyFromUrl(`${site}/media/uploads/m${memberIdValue}/2026/11/abc.jpg`, memberIdValue, site)).toBe(`uploads/m${memberIdValue}/2026/11/abc.jpg`);
    expect(uploadKeyFromUrl(`/media/uploads/m${memberIdValue}/2026/11/abc.jpg`, memberIdValue, site)).toBe(`uploads/m${memberIdValue}/2026/11/abc.jpg`);
    expect(uploadKeyFromUrl(`/media/uploads/m${memberIdValue + 1}/2026/11/abc.jpg`, memberIdValue, site)).toBeNull();
    expect(uploadKeyFromUrl('https://evil.example/media/uploads/m1/x.jpg', 1, site)).toBeNull();
    expect(uploadKeyFromUrl(`/media/seed/restaurants-1.jpg`, memberIdValue, site)).toBeNull();
  });
});
