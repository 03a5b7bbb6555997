import type { Config } from '../../config';
import type { ArticleRow } from '../articles/serialize';
import { imageUrl } from '../../../shared/format/image-url';
import { xmlText } from './xml';

export const RSS_ITEMS = 30;

/** One item of an RSS 2.0 feed. */
export interface RssItem {
  title: string;
  link: string;
  /** A stable id; the link itself when it names the item alone. */
  guid: { value: string; isPermaLink: boolean };
  date: Date | string;
  category?: string;
  description?: string;
  creator?: string;
  image?: string | null;
}

/** RSS 2.0 of articles, newest first. */
export function rssFeed(config: Config, channel: { title: string; path: string; description: string }, rows: ArticleRow[]): string {
  const site = config.site.url;
  return rssDocument(config, { ...channel, selfPath: `${channel.path}rss.xml` }, rows.map((a) => {
    const link = `${site}${a.path}`;
    return {
      title: a.name,
      link,
      guid: { value: link, isPermaLink: true },
      date: a.date_published,
      category: a.type_name,
      description: a.excerpt || undefined,
      creator: a.author_name || undefined,
      image: a.image_key ? `${site}${imageUrl(a.image_key, 'articleCard')}` : null,
    };
  }));
}

/** An RSS 2.0 document: the channel at `path`, the feed itself at `selfPath`, items newest first. */
export function rssDocument(config: Config, channel: { title: string; path: string; selfPath: string; description: string }, rows: RssItem[]): string {
  const site = config.site.url;
  const items = rows
    .map((a) => {
      return [
        '<item>',
        `<title>${xmlText(a.title)}</title>`,
        `<link>${xmlText(a.link)}</link>`,
        `<guid isPermaLink="${a.guid.isPermaLink}">${xmlText(a.guid.value)}</guid>`,
        `<pubDate>${new Date(a.date).toUTCString()}</pubDate>`,
        a.category ? `<category>${xmlText(a.category)}</category>` : '',
        a.description ? `<description>${xmlText(a.description)}</description>` : '',
        a.creator ? `<dc:creator>${xmlText(a.creator)}</dc:creator>` : '',
        a.image ? `<enclosure url="${xmlText(a.image)}" type="image/jpeg" length="0"/>` : '',
        '</item>',
      ].join('');
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel>
<title>${xmlText(channel.title)}</title>
<link>${xmlText(site + channel.path)}</link>
<atom:link href="${xmlText(`${site}${channel.selfPath}`)}" rel="self" type="application/rss+xml"/>
<description>${xmlText(channel.description)}</description>
<language>en-ca</language>
${rows.length ? `<lastBuildDate>${new Date(rows[0].date).toUTCString()}</lastBuildDate>` : ''}
${items}
</channel>
</rss>
`;
}
