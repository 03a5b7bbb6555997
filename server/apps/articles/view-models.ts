import { urls } from '../../../shared/urls';
import { imageUrl } from '../../../shared/format/image-url';
import type { BestOfChangeRow, BestOfListRow } from './queries';

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

/** A list's change log page and its RSS feed. */
export const bestOfChangesPath = (slug: string): string => `${urls.bestOfList(slug)}changes/`;
export const bestOfChangesFeedPath = (slug: string): string => `${bestOfChangesPath(slug)}rss.xml`;

/** What a change-log entry says, in a sentence: the list page, its changes page and its feed all read it. */
export function bestOfChangeSummary(row: Pick<BestOfChangeRow, 'kind' | 'listing_name' | 'from_position' | 'to_position'>): string {
  const name = row.listing_name;
  const at = (n: number | null) => (n === null ? '' : ` No. ${n}`);
  switch (row.kind) {
    case 'added':
      return `Added ${name} at${at(row.to_position)}`;
    case 'removed':
      return `Removed ${name} (was${at(row.from_position)})`;
    case 'moved_up':
      return `Moved ${name} up from${at(row.from_position)} to${at(row.to_position)}`;
    case 'moved_down':
      return `Moved ${name} down from${at(row.from_position)} to${at(row.to_position)}`;
    case 'criteria':
      return 'Changed how we choose';
    case 'visited':
      return `Visited ${name} again`;
  }
}

export interface BestOfChangeView extends BestOfChangeRow {
  summary: string;
}

export const bestOfChangeView = (row: BestOfChangeRow): BestOfChangeView => ({ ...row, summary: bestOfChangeSummary(row) });
