import type { ImageSizeName } from '../../shared/constants';
import { sizedImageUrl } from '../../shared/format/image-url';
import { siteRelativeUrl } from '../../shared/urls';
import { siteConfig } from './initial-state';

/**
 * A picture's URL as an island draws it: the API's absolute image URLs name SITE_URL, and a
 * page opened at another name (127.0.0.1, a staging host) may not load pictures from there
 * (CSP img-src 'self', Cross-Origin-Resource-Policy), so our own are drawn by path, at a size
 * of IMAGE_SIZES when one is asked; foreign ones (video thumbnails) as they are.
 */
export function pictureUrl(url: string, size?: ImageSizeName): string {
  return siteRelativeUrl(size ? sizedImageUrl(url, size) : url, siteConfig().url);
}
