// Builds WordPress exports (WXR 1.2) for the import's tests and its memory benchmark
// (scripts/bench/wxr-generate.ts): the channel header with authors and categories, items, and
// the footer, as WordPress writes them (content in CDATA).

export interface WxrPostInput {
  id: number;
  title: string;
  content?: string;
  excerpt?: string;
  /** wp:post_name */
  slug?: string;
  /** "2019-05-17 10:00:00" (the site's time) */
  date?: string;
  /** "2019-05-17 14:00:00" (UTC) */
  dateGmt?: string;
  status?: string;
  type?: string;
  creator?: string;
  link?: string;
  guid?: string;
  categories?: Array<{ nicename: string; name: string }>;
  tags?: string[];
  meta?: Record<string, string>;
  attachmentUrl?: string;
  parent?: number;
}

export const WXR_SITE = 'https://old.example.com';

const cdata = (s: string) => `<![CDATA[${s.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function wxrHeader(authors: Array<{ login: string; email: string; displayName: string }>, categories: Array<{ nicename: string; name: string }>): string {
  return `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0"
	xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/"
	xmlns:content="http://purl.org/rss/1.0/modules/content/"
	xmlns:wfw="http://wellformedweb.org/CommentAPI/"
	xmlns:dc="http://purl.org/dc/elements/1.1/"
	xmlns:wp="http://wordpress.org/export/1.2/"
>
<channel>
	<title>Old Toronto Blog</title>
	<link>${WXR_SITE}</link>
	<description>Just another WordPress site</description>
	<language>en-US</language>
	<wp:wxr_version>1.2</wp:wxr_version>
	<wp:base_site_url>${WXR_SITE}</wp:base_site_url>
	<wp:base_blog_url>${WXR_SITE}</wp:base_blog_url>
${authors.map((a, i) => `	<wp:author><wp:author_id>${i + 1}</wp:author_id><wp:author_login>${cdata(a.login)}</wp:author_login><wp:author_email>${cdata(a.email)}</wp:author_email><wp:author_display_name>${cdata(a.displayName)}</wp:author_display_name><wp:author_first_name><![CDATA[]]></wp:author_first_name><wp:author_last_name><![CDATA[]]></wp:author_last_name></wp:author>`).join('\n')}
${categories.map((c, i) => `	<wp:category><wp:term_id>${i + 1}</wp:term_id><wp:category_nicename>${cdata(c.nicename)}</wp:category_nicename><wp:category_parent><![CDATA[]]></wp:category_parent><wp:cat_name>${cdata(c.name)}</wp:cat_name></wp:category>`).join('\n')}
	<generator>https://wordpress.org/?v=6.4</generator>
`;
}

export function wxrItem(p: WxrPostInput): string {
  const type = p.type ?? 'post';
  const date = p.date ?? '2019-05-17 10:00:00';
  const gmt = p.dateGmt ?? (p.status === 'draft' ? '0000-00-00 00:00:00' : '2019-05-17 14:00:00');
  const link = p.link ?? `${WXR_SITE}/?p=${p.id}`;
  const cats = (p.categories ?? []).map((c) => `		<category domain="category" nicename="${esc(c.nicename)}">${cdata(c.name)}</category>`);
  const tags = (p.tags ?? []).map((t) => `		<category domain="post_tag" nicename="${esc(t)}">${cdata(t)}</category>`);
  const meta = Object.entries(p.meta ?? {}).map(([k, v]) => `		<wp:postmeta>
			<wp:meta_key>${cdata(k)}</wp:meta_key>
			<wp:meta_value>${cdata(v)}</wp:meta_value>
		</wp:postmeta>`);
  return `	<item>
		<title>${cdata(p.title)}</title>
		<link>${esc(link)}</link>
		<pubDate>Fri, 17 May 2019 14:00:00 +0000</pubDate>
		<dc:creator>${cdata(p.creator ?? 'admin')}</dc:creator>
		<guid isPermaLink="false">${esc(p.guid ?? `${WXR_SITE}/?p=${p.id}`)}</guid>
		<description></description>
		<content:encoded>${cdata(p.content ?? '')}</content:encoded>
		<excerpt:encoded>${cdata(p.excerpt ?? '')}</excerpt:encoded>
		<wp:post_id>${p.id}</wp:post_id>
		<wp:post_date>${cdata(date)}</wp:post_date>
		<wp:post_date_gmt>${cdata(gmt)}</wp:post_date_gmt>
		<wp:post_modified>${cdata(date)}</wp:post_modified>
		<wp:post_modified_gmt>${cdata(gmt)}</wp:post_modified_gmt>
		<wp:comment_status>${cdata('open')}</wp:comment_status>
		<wp:ping_status>${cdata('open')}</wp:ping_status>
		<wp:post_name>${cdata(p.slug ?? '')}</wp:post_name>
		<wp:status>${cdata(p.status ?? (type === 'attachment' ? 'inherit' : 'publish'))}</wp:status>
		<wp:post_parent>${p.parent ?? 0}</wp:post_parent>
		<wp:menu_order>0</wp:menu_order>
		<wp:post_type>${cdata(type)}</wp:post_type>
		<wp:post_password><![CDATA[]]></wp:post_password>
		<wp:is_sticky>0</wp:is_sticky>
${p.attachmentUrl ? `		<wp:attachment_url>${cdata(p.attachmentUrl)}</wp:attachment_url>\n` : ''}${[...cats, ...tags, ...meta].join('\n')}
		<wp:comment>
			<wp:comment_id>1</wp:comment_id>
			<wp:comment_author>${cdata('A reader')}</wp:comment_author>
			<wp:comment_content>${cdata('<script>alert("comment")</script> Nice post')}</wp:comment_content>
		</wp:comment>
	</item>
`;
}

export const WXR_FOOTER = `</channel>
</rss>
`;
