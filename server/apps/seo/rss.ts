import type { Config } from '../../config';
import type { ArticleRow } from '../articles/serialize';
import { imageUrl } from '../../../shared/format/image-url';
import { xmlText } from './xml';

export const RSS_ITEMS = 30;

/** RSS 2.0 of articles, newest first. */
export function rssFeed(config: Config, channel: { title: string; path: string; description: string }, rows: ArticleRow[]): string {
  const site = config.site.url;
  const items = rows
    .map((a) => {
      const link = `${site}${a.path}`;
      const image = a.image_key ? `${site}${imageUrl(a.image_key, 'articleCard')}` : null;
      return [
        '<item>',
        `<title>${xmlText(a.name)}</title>`,
        `<link>${xmlText(link)}</link>`,
        `<guid isPermaLink="true">${xmlText(link)}</guid>`,
        `<pubDate>${new Date(a.date_published).toUTCString()}</pubDate>`,
        `<category>${xmlText(a.type_name)}</category>`,
        a.excerpt ? `<description>${xmlText(a.excerpt)}</description>` : '',
        a.author_name ? `<dc:creator>${xmlText(a.author_name)}</dc:creator>` : '',
        image ? `<enclosure url="${xmlText(image)}" type="image/jpeg" length="0"/>` : '',
        '</item>',
      ].join('');
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel>
<title>${xmlText(channel.title)}</title>
<link>${xmlText(site + channel.path)}</link>
<atom:link href="${xmlText(`${site}${channel.path}rss.xml`)}" rel="self" type="application/rss+xml"/>
<description>${xmlText(channel.description)}</description>
<language>en-ca</language>
${rows.length ? `<lastBuildDate>${new Date(rows[0].date_published).toUTCString()}</lastBuildDate>` : ''}
${items}
</channel>
</rss>
`;
}
