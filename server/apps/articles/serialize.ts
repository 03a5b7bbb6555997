import moment from 'moment-timezone';
import type { ArticleDTO } from '../../../shared/dto';
import { absoluteUrl, urls } from '../../../shared/urls';
import { imageUrl } from '../../../shared/format/image-url';

export interface ArticleRow {
  id: number;
  name: string;
  slug: string;
  path: string;
  excerpt: string;
  image_key: string | null;
  is_slideshow: boolean;
  is_featured: boolean;
  author_name: string;
  date_published: Date | string;
  type_id: number;
  type_name: string;
  type_slug: string;
}

export function toArticleDTO(row: ArticleRow, siteUrl: string): ArticleDTO {
  return {
    id: row.id,
    name: row.name,
    path: row.path,
    image_url: row.image_key ? absoluteUrl(siteUrl, imageUrl(row.image_key)) : null,
    share_url: absoluteUrl(siteUrl, row.path),
    date_published: new Date(row.date_published).toISOString(),
    type: { name: row.type_name, share_url: absoluteUrl(siteUrl, urls.articleType(row.type_slug)) },
    is_slideshow: Boolean(row.is_slideshow),
    slideshow_url: row.is_slideshow ? absoluteUrl(siteUrl, `${row.path}slideshow/`) : null,
    excerpt: row.excerpt,
  };
}

/** `/{type-slug}/{yyyy}/{mm}/{slug}/`, the month being the city's local month of publication. */
export function articlePath(typeSlug: string, published: Date, slug: string, timeZone: string): string {
  const local = moment(published).tz(timeZone);
  return `/${typeSlug}/${local.format('YYYY')}/${local.format('MM')}/${slug}/`;
}
