import moment from 'moment-timezone';
import type { Db } from '../../db';
import type { ArticleDTO } from '../../../shared/dto';
import { absoluteUrl, urls } from '../../../shared/urls';
import { imageUrl } from '../../../shared/format/image-url';
// The scope and this module import each other; neither calls the other while loading.
import { whereArticleIsPublic } from './queries';

export const ARTICLE_COLUMNS = [
  'a.id', 'a.name', 'a.slug', 'a.path', 'a.excerpt', 'a.image_key', 'a.is_slideshow', 'a.is_featured', 'a.author_name',
  'a.date_published', 't.id as type_id', 't.name as type_name', 't.slug as type_slug',
] as const;

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

/** The articles a reader may see at `now` (whereArticleIsPublic) with their type t joined. */
export function articlesQuery(db: Db, now: Date) {
  return whereArticleIsPublic(db('articles as a').join('article_types as t', 't.id', 'a.type_id'), now).select([...ARTICLE_COLUMNS]);
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
