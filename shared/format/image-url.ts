import { IMAGE_SIZES, type ImageSizeName } from '../constants';

/** The query of a rendition: w, h and cmd in a fixed order, so one size has one URL. */
export function imageSizeQuery(size: ImageSizeName): string {
  const s = IMAGE_SIZES[size] as { w: number; h: number | null; cmd: string };
  if (!s) throw new Error(`Unknown image size "${String(size)}"`);
  return s.h ? `w=${s.w}&h=${s.h}&cmd=${s.cmd}` : `w=${s.w}&cmd=${s.cmd}`;
}

/**
 * The URL of a stored image, as stored or at one of IMAGE_SIZES: /media/{key}?w=&h=&cmd=
 * (spec 1 §7). Keys are storage keys; absolute URLs (external images) pass through untouched.
 */
export function imageUrl(key: string, size?: ImageSizeName): string {
  if (/^https?:\/\//.test(key)) return key;
  const path = `/media/${key.split('/').map(encodeURIComponent).join('/')}`;
  return size ? `${path}?${imageSizeQuery(size)}` : path;
}

/**
 * An image URL from the API (the original's /media/ URL) at one of IMAGE_SIZES. Only our own
 * originals have renditions: an outside picture (a video's thumbnail) or a URL that already
 * names a size is returned as it is.
 */
export function sizedImageUrl(url: string, size: ImageSizeName): string {
  if (!url.includes('/media/') || url.includes('?')) return url;
  return `${url}?${imageSizeQuery(size)}`;
}

/** The name of the size a rendition request asks for; null when it is not one we serve. */
export function findImageSize(w: number | null, h: number | null, cmd: 'crop' | 'fit'): ImageSizeName | null {
  for (const [name, s] of Object.entries(IMAGE_SIZES) as Array<[ImageSizeName, { w: number; h: number | null; cmd: string }]>) {
    if (s.w === w && s.h === h && s.cmd === cmd) return name;
  }
  return null;
}
