import { DEFAULT_IMAGE_QUALITY } from '../constants';

export interface ImageOptions {
  w?: number;
  h?: number;
  cmd?: 'crop' | 'fit';
  quality?: number;
}

/**
 * The URL of a stored image at a size: /media/{key}?w=&h=&cmd=&quality= (spec 1 §7). Keys are
 * storage keys; absolute URLs (external images) pass through untouched.
 */
export function imageUrl(key: string, opts: ImageOptions = {}): string {
  if (/^https?:\/\//.test(key)) return key;
  const params = new URLSearchParams();
  if (opts.w) params.set('w', String(opts.w));
  if (opts.h) params.set('h', String(opts.h));
  if (opts.w || opts.h) params.set('cmd', opts.cmd ?? 'crop');
  if (opts.quality && opts.quality !== DEFAULT_IMAGE_QUALITY) params.set('quality', String(opts.quality));
  const qs = params.toString();
  return `/media/${key.split('/').map(encodeURIComponent).join('/')}${qs ? `?${qs}` : ''}`;
}
