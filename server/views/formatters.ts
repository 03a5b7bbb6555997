// Nunjucks filters. Each is a thin wrapper over a shared formatter so pages and islands print
// the same things the same way.
import moment from 'moment-timezone';
import { navTitle, pluralize, truncate } from '../../shared/format/text';
import { imageUrl, sizedImageUrl } from '../../shared/format/image-url';
import { siteRelativeUrl } from '../../shared/urls';
import type { ImageSizeName } from '../../shared/constants';
import { formatDistanceKm } from '../../shared/format/distance';
import { placeholderImageUrl, type PlaceholderKind } from '../../shared/format/placeholder-image';
import { formatRating, formatRatingCount } from '../../shared/format/rating';

export function makeFilters(timeZone: string, siteUrl = '') {
  return {
    date(value: unknown, format = 'MMMM D, YYYY'): string {
      if (!value) return '';
      const m = moment.tz(value as string | Date, timeZone);
      return m.isValid() ? m.format(format) : '';
    },
    isoDate(value: unknown): string {
      if (!value) return '';
      return new Date(value as string).toISOString();
    },
    truncate: (value: unknown, length = 160) => truncate(String(value ?? ''), length),
    navTitle: (value: unknown) => navTitle(String(value ?? '')),
    pluralize: (count: number, singular: string, plural?: string) => pluralize(count, singular, plural),
    // A size is a name from IMAGE_SIZES ('articleCard'); an unknown name throws, so a
    // template cannot print a URL the image endpoint would refuse.
    imageUrl: (key: unknown, size?: ImageSizeName) => (key ? imageUrl(String(key), size) : ''),
    /** An API image URL (an original's /media/ URL) at a size, by path when it is ours. */
    sizedImageUrl: (url: unknown, size: ImageSizeName) => (url ? siteRelativeUrl(sizedImageUrl(String(url), size), siteUrl) : ''),
    // Pictures the page draws from an absolute URL (a DTO's image_url): ours by path, so they
    // load at whichever name the page was opened (SITE_URL or not); foreign ones as they are.
    siteRelative: (url: unknown) => (url ? siteRelativeUrl(String(url), siteUrl) : ''),
    /** 'place' | placeholderImage(typeSlug): the designed picture for something without a photo. */
    placeholderImage: (kind: PlaceholderKind, typeSlug?: string | null) => placeholderImageUrl(kind, typeSlug),
    distance: (km: number) => formatDistanceKm(km),
    rating: (value: unknown) => formatRating(value as number | string | null | undefined),
    /** '22 ratings': printed beside the rating on cards and lists. */
    ratingCount: (count: unknown) => formatRatingCount(Number(count ?? 0)),
    paragraphs: (text: unknown) =>
      String(text ?? '')
        .split(/\n{2,}/)
        .map((p) => p.trim())
        .filter(Boolean),
  };
}
