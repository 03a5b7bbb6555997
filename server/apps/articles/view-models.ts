import { urls } from '../../../shared/urls';
import { imageUrl } from '../../../shared/format/image-url';
import type { BestOfListRow } from './page-queries';

// Rows become what the card partial (templates/partials/card-article.njk) reads: url, title,
// image, kicker, date, excerpt. Article rows are read by articleCard directly.

export interface BestOfCard {
  url: string;
  title: string;
  image: string;
  kicker: string;
  excerpt: string;
  date: Date | string;
}

export function bestOfCard(row: BestOfListRow): BestOfCard {
  return {
    url: urls.bestOfList(row.slug),
    title: row.title,
    image: row.image_key ? imageUrl(row.image_key, 'articleCard') : '',
    kicker: 'Best of',
    excerpt: row.intro,
    date: row.date_published,
  };
}
