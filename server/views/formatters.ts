// Nunjucks filters. Each is a thin wrapper over a shared formatter so pages and islands print
// the same things the same way.
import moment from 'moment-timezone';
import { navTitle, pluralize, truncate } from '../../shared/format/text';
import { imageUrl } from '../../shared/format/image-url';
import { formatDistanceKm } from '../../shared/format/distance';

export function makeFilters(timeZone: string) {
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
    imageUrl: (key: unknown, opts: { w?: number; h?: number; cmd?: 'crop' | 'fit'; quality?: number } = {}) =>
      key ? imageUrl(String(key), opts) : '',
    distance: (km: number) => formatDistanceKm(km),
    rating: (value: unknown) => (value === null || value === undefined || value === '' ? '-' : Number(value).toFixed(2)),
    paragraphs: (text: unknown) =>
      String(text ?? '')
        .split(/\n{2,}/)
        .map((p) => p.trim())
        .filter(Boolean),
  };
}
