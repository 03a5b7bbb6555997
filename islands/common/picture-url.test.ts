import { pictureUrl } from './picture-url';

// The page's site config names SITE_URL; the API's image URLs are absolute on it. An island
// draws ours by path (the page may have been opened at 127.0.0.1), foreign ones as they are.
beforeAll(() => {
  const config = document.createElement('script');
  config.id = 'site-config';
  config.type = 'application/json';
  config.textContent = JSON.stringify({ name: 'Guide', url: 'http://localhost:3000' });
  document.body.append(config);
});

test('draws our own pictures by path, at a size when asked', () => {
  expect(pictureUrl('http://localhost:3000/media/listings/a.jpg', 'listingCard')).toBe('/media/listings/a.jpg?w=210&h=140&cmd=crop');
  expect(pictureUrl('http://localhost:3000/media/avatars/a.jpg?w=80&h=80&cmd=crop')).toBe('/media/avatars/a.jpg?w=80&h=80&cmd=crop');
});

test('leaves foreign and already relative pictures alone', () => {
  expect(pictureUrl('https://i.ytimg.com/vi/abc/hqdefault.jpg', 'articleCard')).toBe('https://i.ytimg.com/vi/abc/hqdefault.jpg');
  expect(pictureUrl('/media/ads/a.png')).toBe('/media/ads/a.png');
});
