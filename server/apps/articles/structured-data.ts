import type { Config } from '../../config';
import { absoluteUrl, urls } from '../../../shared/urls';
import { imageUrl } from '../../../shared/format/image-url';
import type { ArticleDetailRow, BestOfItemRow } from './queries';
import { listingPath } from '../listings/serialize';

/** schema.org NewsArticle for an article page (Google's article rich results read these fields). */
export function newsArticleJsonLd(config: Config, a: ArticleDetailRow) {
  const url = absoluteUrl(config.site.url, a.path);
  return {
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    url,
    headline: a.name.slice(0, 110),
    description: a.excerpt || undefined,
    image: a.image_key
      ? [absoluteUrl(config.site.url, imageUrl(a.image_key, 'hero')), absoluteUrl(config.site.url, imageUrl(a.image_key, 'heroSquare'))]
      : undefined,
    datePublished: new Date(a.date_published).toISOString(),
    dateModified: new Date(a.date_updated ?? a.date_published).toISOString(),
    articleSection: a.type_name,
    inLanguage: 'en-CA',
    author: a.author_name ? { '@type': 'Person', name: a.author_name } : { '@type': 'Organization', name: config.site.name },
    publisher: { '@type': 'Organization', name: config.site.name, logo: { '@type': 'ImageObject', url: `${config.site.url}/static/img/favicon.svg` } },
    isAccessibleForFree: true,
  };
}

/** An ItemList of a Best of list's places, linking each to its listing page. */
export function bestOfItemListJsonLd(config: Config, title: string, items: BestOfItemRow[]) {
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    name: title,
    numberOfItems: items.length,
    itemListElement: items.map((item, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: item.name,
      url: absoluteUrl(config.site.url, listingPath(item)),
    })),
  };
}

export { urls };
