import { imageUrl, sizedImageUrl } from './image-url';

describe('sizedImageUrl', () => {
  test('asks for a rendition of our own originals', () => {
    expect(sizedImageUrl('http://localhost:3000/media/seed/events-1.jpg', 'articleCard')).toBe('http://localhost:3000/media/seed/events-1.jpg?w=720&h=480&cmd=crop');
    expect(sizedImageUrl(imageUrl('listings/a.jpg'), 'listingCard')).toBe('/media/listings/a.jpg?w=210&h=140&cmd=crop');
  });
  test('leaves outside pictures and URLs that already name a size as they are', () => {
    expect(sizedImageUrl('https://i.ytimg.com/vi/abc/hqdefault.jpg', 'listingCard')).toBe('https://i.ytimg.com/vi/abc/hqdefault.jpg');
    expect(sizedImageUrl('/media/a.jpg?w=80&h=80&cmd=crop', 'articleCard')).toBe('/media/a.jpg?w=80&h=80&cmd=crop');
  });
});
