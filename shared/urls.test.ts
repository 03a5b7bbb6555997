import { absoluteUrl, siteRelativeUrl } from './urls';

describe('siteRelativeUrl', () => {
  const site = 'http://localhost:3000';
  test('names our own media by path, so any origin the page came from can load it', () => {
    expect(siteRelativeUrl('http://localhost:3000/media/seed/a.jpg?w=720&h=480&cmd=crop', site)).toBe('/media/seed/a.jpg?w=720&h=480&cmd=crop');
    expect(siteRelativeUrl('http://localhost:3000/static/img/x.svg', site)).toBe('/static/img/x.svg');
    // SITE_URL may end with a slash or name a path: the origin is what the page may differ in.
    expect(siteRelativeUrl('https://guide.example/media/a.jpg', 'https://guide.example/')).toBe('/media/a.jpg');
    expect(siteRelativeUrl('HTTPS://Guide.Example/media/a.jpg', 'https://guide.example')).toBe('/media/a.jpg');
  });
  test('leaves foreign, relative, data and empty URLs as they are', () => {
    expect(siteRelativeUrl('https://i.ytimg.com/vi/abc/hqdefault.jpg', site)).toBe('https://i.ytimg.com/vi/abc/hqdefault.jpg');
    expect(siteRelativeUrl('https://cdn.example/media/a.jpg', site)).toBe('https://cdn.example/media/a.jpg');
    // Same host, another port or scheme: another origin.
    expect(siteRelativeUrl('http://localhost:3001/media/a.jpg', site)).toBe('http://localhost:3001/media/a.jpg');
    expect(siteRelativeUrl('https://localhost:3000/media/a.jpg', site)).toBe('https://localhost:3000/media/a.jpg');
    expect(siteRelativeUrl('http://localhost:30000/media/a.jpg', site)).toBe('http://localhost:30000/media/a.jpg');
    expect(siteRelativeUrl('/media/a.jpg', site)).toBe('/media/a.jpg');
    expect(siteRelativeUrl('data:image/png;base64,AAAA', site)).toBe('data:image/png;base64,AAAA');
    expect(siteRelativeUrl('', site)).toBe('');
  });
  test('without a known site URL it changes nothing', () => {
    expect(siteRelativeUrl('http://localhost:3000/media/a.jpg', '')).toBe('http://localhost:3000/media/a.jpg');
  });
});

test('siteRelativeUrl undoes absoluteUrl', () => {
  expect(siteRelativeUrl(absoluteUrl('http://localhost:3000', '/media/a.jpg'), 'http://localhost:3000')).toBe('/media/a.jpg');
});
