import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';

describe('masthead page', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  test('is linked from every page’s footer and names who makes the site', async () => {
    const home = await request(t.app).get('/');
    expect(home.text).toMatch(/<footer[\s\S]*href="\/masthead\/"[\s\S]*<\/footer>/);
    const res = await request(t.app).get('/masthead/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1>Masthead</h1>');
    expect(res.text).toContain('Editor-in-chief');
    expect(res.text).toContain('<link rel="canonical" href="http://localhost:3000/masthead/">');
    const moved = await request(t.app).get('/masthead');
    expect([moved.status, moved.headers.location]).toEqual([301, '/masthead/']);
    expect((await request(t.app).get('/sitemaps/pages.xml')).text).toContain('<loc>http://localhost:3000/masthead/</loc>');
  });
});
