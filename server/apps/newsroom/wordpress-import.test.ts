import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { createMember, createTestContext, type TestContext } from '../../testing/test-app';
import { storyDocError, storyNodes, type StoryDoc, type StoryNode } from '../../../shared/newsroom';
import { formatReport, importWordPress, oldPaths, storySlug, uploadsPath, wordpressImageKey, type ImportReport } from './wordpress-import';
import { WXR_FOOTER, WXR_SITE, wxrHeader, wxrItem, type WxrPostInput } from './test-wxr';

const U = `${WXR_SITE}/wp-content/uploads`;
const food = { nicename: 'food', name: 'Food' };
const culture = { nicename: 'arts-culture', name: 'Culture' }; // matched by name
const unknown = { nicename: 'uncategorized', name: 'Uncategorized' };

const attachments: WxrPostInput[] = [
  { id: 900, title: 'tower', type: 'attachment', attachmentUrl: `${U}/2019/05/tower.jpg`, meta: { _wp_attachment_image_alt: 'The CN Tower' }, excerpt: 'The tower. Photo by Ana Ruiz' },
  { id: 901, title: 'gal1', type: 'attachment', attachmentUrl: `${U}/2019/06/gal1.jpg`, meta: { _wp_attachment_image_alt: 'First' }, excerpt: 'One' },
  { id: 902, title: 'gal2', type: 'attachment', attachmentUrl: `${U}/2019/06/gal2.png`, meta: { _wp_attachment_image_alt: 'Second' } },
  { id: 903, title: 'gone', type: 'attachment', attachmentUrl: `${U}/2019/05/gone.jpg` },
];

const P = (id: number, fields: Partial<WxrPostInput>): WxrPostInput => ({
  id,
  title: `Post ${id}`,
  slug: `post-${id}`,
  link: `${WXR_SITE}/2019/05/17/post-${id}/`,
  creator: 'ana',
  categories: [food],
  content: `Paragraph of post ${id}.`,
  ...fields,
});

const posts: WxrPostInput[] = [
  P(1, { title: 'Plain &amp; simple', content: 'First <strong>bold</strong> and <em>italic</em> with <a href="https://example.com/x">a link</a>.\nSame paragraph.\n\nSecond paragraph.\n\n\n\nThird.' }),
  P(2, { content: '[caption id="attachment_900" align="alignnone" width="300"]<a href="' + U + '/2019/05/tower.jpg"><img class="size-medium" src="' + U + '/2019/05/tower-300x200.jpg" alt="Tower at dusk" width="300" height="200" /></a> The tower at dusk. Photo by Ana Ruiz[/caption]\n\nAfter the picture.' }),
  P(3, { content: 'Before.\n\n[caption id="attachment_903" width="300"]<img src="' + U + '/2019/05/gone-300x200.jpg" alt="Gone" /> Lost[/caption]\n\nAfter.' }),
  P(4, { content: 'A gallery:\n\n[gallery ids="901,902,903"]\n\nThe end.' }),
  P(5, { content: 'Watch this:\n\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ\n\nGood, right?' }),
  P(6, { content: '<iframe width="560" height="315" src="https://www.youtube.com/embed/dQw4w9WgXcQ?start=30" frameborder="0" allowfullscreen></iframe>\n\nEmbedded.' }),
  P(7, { content: 'Vimeo:\n\n<iframe src="https://player.vimeo.com/video/123"></iframe>\n\nDone.' }),
  P(8, { content: '[embed]https://youtu.be/dQw4w9WgXcQ[/embed]\n\nAn embed shortcode.' }),
  P(9, { content: 'Write to us: [contact-form-7 id="3" title="Contact"]\n\n[button url="/x"]Click here[/button] and [sic] stays.' }),
  P(10, { content: 'A table:\n\n<table><tr><td>secret cell</td></tr></table>\n\nAfter the table.' }),
  P(11, { content: 'Hello<script>alert("x")</script>\n\n<img src="x" onerror="alert(1)">\n\n<style>p{color:red}</style><p onclick="alert(2)">Clicky</p>' }),
  P(12, { content: '<ul>\n<li>one\n<ul>\n<li>nested one</li>\n<li>nested two</li>\n</ul>\n</li>\n<li>two</li>\n</ul>\n\n<ol start="3"><li>three</li><li>four</li></ol>' }),
  P(13, { content: '<a href="javascript:alert(1)">bad</a>, <a href="JaVaScRiPt:alert(2)">worse</a>, <a href="data:text/html,x">data</a> and <a href="/food/">good</a>.' }),
  P(14, { content: '<h1>One</h1>\n<h2>Two</h2>\n<h3>Three</h3>\n<h6>Six</h6>\n<blockquote>A quote\n\nin two paragraphs</blockquote>\n<hr />\nEnd.' }),
  P(15, { status: 'draft', slug: '', title: 'A draft without slug' }),
  P(16, { status: 'pending' }),
  P(17, { status: 'future', date: '2030-01-02 09:00:00', dateGmt: '2030-01-02 14:00:00', link: `${WXR_SITE}/?p=17` }),
  P(18, { status: 'private' }),
  P(19, { meta: { _thumbnail_id: '900' }, content: 'Has a featured image.' }),
  P(20, { meta: { _thumbnail_id: '903' }, content: 'Featured image missing.' }),
  P(21, { categories: [unknown], content: 'Uncategorized.' }),
  P(22, { categories: [culture, food], content: 'Culture by name.' }),
  P(23, { slug: 'same-slug', link: `${WXR_SITE}/2019/05/17/same-slug/` }),
  P(24, { slug: 'same-slug', link: `${WXR_SITE}/2019/05/18/same-slug/` }),
  P(25, { content: 'Sign up: <form action="/x"><input name="e"><button>Go</button></form>\n\nThanks.' }),
  P(26, { content: '<!-- wp:paragraph -->\n<p>Block editor paragraph.</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:gallery -->\n<figure class="wp-block-gallery"><figure class="wp-block-image"><img src="' + U + '/2019/06/gal1.jpg" alt="G1"/><figcaption>Cap one</figcaption></figure><figure class="wp-block-image"><img src="' + U + '/2019/06/gal2.png" alt="G2"/></figure></figure>\n<!-- /wp:gallery -->\n\n<!-- wp:embed -->\n<figure class="wp-block-embed is-provider-youtube"><div class="wp-block-embed__wrapper">\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ\n</div></figure>\n<!-- /wp:embed -->' }),
  P(27, { content: '' }),
  P(28, { content: 'Inline <img src="' + U + '/2019/05/tower-150x150.jpg" alt="small tower" /> picture in text.' }),
  P(29, { slug: '%e6%9d%b1%e4%ba%ac-caf%c3%a9', title: 'Café', link: `${WXR_SITE}/2019/05/17/%e6%9d%b1%e4%ba%ac-caf%c3%a9/` }),
  P(30, { creator: 'bo', content: '<div class="x"><span style="color:red">Styled</span> text <u>underlined</u><sup>1</sup></div>' }),
  { id: 40, title: 'About us', type: 'page', slug: 'about', link: `${WXR_SITE}/about/`, content: 'About.' },
  { id: 41, title: 'Contact', type: 'page', slug: 'contact', link: `${WXR_SITE}/contact/`, content: 'Contact.' },
  { id: 50, title: 'Menu', type: 'nav_menu_item' },
];

function writeWxr(file: string, items: WxrPostInput[]) {
  const authors = [
    { login: 'ana', email: 'ana.ruiz@example.com', displayName: 'Ana Ruiz' },
    { login: 'bo', email: 'bo@example.com', displayName: 'Bo Chen' },
  ];
  fs.writeFileSync(file, wxrHeader(authors, [food, culture, unknown]) + items.map(wxrItem).join('') + WXR_FOOTER);
}

let t: TestContext;
let file: string;
let mediaDir: string;
let first: ImportReport;
let anaId: number;

const guid = (id: number) => `${WXR_SITE}/?p=${id}`;
async function story(id: number) {
  const row = await t.ctx.db('articles as a').join('article_types as t', 't.id', 'a.type_id').where('a.wordpress_guid', guid(id)).first('a.*', 't.slug as type_slug');
  if (!row) throw new Error(`post ${id} was not imported`);
  return { ...row, doc: (typeof row.doc === 'string' ? JSON.parse(row.doc) : row.doc) as StoryDoc };
}
const nodesOf = (doc: StoryDoc, type: string): StoryNode[] => [...storyNodes(doc)].filter((n) => n.type === type);
const reportOf = (r: ImportReport, id: number) => r.posts.find((p) => p.wordpressId === id)!;

beforeAll(async () => {
  t = await createTestContext();
  const types = await t.ctx.db('article_types').select('slug');
  for (const [slug, name] of [['news', 'News'], ['food', 'Food'], ['culture', 'Culture']]) {
    if (!types.some((r: { slug: string }) => r.slug === slug)) await t.ctx.db('article_types').insert({ slug, name, position: 10 });
  }
  anaId = (await createMember(t.ctx, { email: 'Ana.Ruiz@example.com', full_name: 'Ana Ruiz' })).id;
  file = path.join(t.tmpDir, 'export.xml');
  writeWxr(file, [...attachments.slice(0, 2), ...posts, ...attachments.slice(2)]); // attachments before and after the posts
  mediaDir = path.join(t.tmpDir, 'uploads');
  fs.mkdirSync(path.join(mediaDir, '2019', '05'), { recursive: true });
  fs.mkdirSync(path.join(mediaDir, '2019', '06'), { recursive: true });
  const jpeg = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: { r: 200, g: 30, b: 30 } } }).jpeg().toBuffer();
  fs.writeFileSync(path.join(mediaDir, '2019/05/tower.jpg'), await jpeg(800, 600));
  fs.writeFileSync(path.join(mediaDir, '2019/05/tower-300x200.jpg'), await jpeg(300, 200));
  fs.writeFileSync(path.join(mediaDir, '2019/06/gal1.jpg'), await jpeg(640, 480));
  fs.writeFileSync(path.join(mediaDir, '2019/06/gal2.png'), await sharp({ create: { width: 100, height: 80, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 0.5 } } }).png().toBuffer());
  fs.writeFileSync(path.join(mediaDir, '2019/05/notes.jpg'), 'not an image');
  first = await importWordPress(t.ctx.db, t.ctx.storage, file, { mediaDir });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

test('imports every post, leaves the pages out and says so', async () => {
  expect(first.imported).toBe(30);
  expect(first.updated).toBe(0);
  expect(first.skipped).toBe(0);
  expect(first.pagesLeftOut.map((p) => p.title)).toEqual(['About us', 'Contact']);
  expect(first.ignored).toEqual({ nav_menu_item: 1 });
  expect(first.peakRssBytes).toBeGreaterThan(0);
  const text = formatReport(first);
  expect(text).toContain('30 imported, 0 updated');
  expect(text).toContain('WordPress pages left out (2)');
  expect(text).toContain('Uncategorized (1)');
  expect(Number((await t.ctx.db('articles').whereNotNull('wordpress_guid').count({ n: '*' }).first())!.n)).toBe(30);
});

test('every body is a valid story document and no script, javascript: or onerror survives', async () => {
  const rows = await t.ctx.db('articles').whereNotNull('wordpress_guid').select('doc', 'body_html', 'body', 'name');
  for (const row of rows) {
    const doc = typeof row.doc === 'string' ? JSON.parse(row.doc) : row.doc;
    expect(storyDocError(doc)).toBeNull();
    expect(row.body_html).not.toMatch(/<script|javascript:|onerror|onclick|<style|<table|<form|data:text/i);
    expect(row.body).not.toMatch(/alert\(|secret cell|color:red/);
  }
});

test('statuses, dates, bylines and types', async () => {
  const s1 = await story(1);
  expect(s1).toMatchObject({ status: 'published', name: 'Plain & simple', author_name: 'Ana Ruiz', author_id: anaId, type_slug: 'food', path: '/food/2019/05/post-1/', slug: 'post-1', scheduled_at: null });
  expect(new Date(s1.date_published).toISOString()).toBe('2019-05-17T14:00:00.000Z');
  expect(s1.body).toBe('First bold and italic with a link.\nSame paragraph.\n\nSecond paragraph.\n\nThird.');
  expect(s1.body_html).toContain('<p>First <strong>bold</strong> and <em>italic</em> with <a href="https://example.com/x" rel="noopener nofollow">a link</a>.<br>Same paragraph.</p>');
  expect(s1.excerpt).toBe('First bold and italic with a link.\nSame paragraph.');

  const draft = await story(15);
  expect(draft).toMatchObject({ status: 'draft', slug: 'a-draft-without-slug' });
  expect((await story(16)).status).toBe('review');
  const scheduled = await story(17);
  expect(scheduled.status).toBe('scheduled');
  expect(new Date(scheduled.scheduled_at).toISOString()).toBe('2030-01-02T14:00:00.000Z');
  expect(scheduled.path).toBe('/food/2030/01/post-17/');
  expect((await story(18)).status).toBe('draft');

  expect((await story(21)).type_slug).toBe('news');
  expect((await story(22)).type_slug).toBe('culture');
  expect(first.unknownCategories).toEqual({ Uncategorized: 1 });
  expect(await story(30)).toMatchObject({ author_name: 'Bo Chen', author_id: null });

  // The same slug in the same month: made unique.
  expect((await story(23)).path).toBe('/food/2019/05/same-slug/');
  expect((await story(24)).path).toBe('/food/2019/05/same-slug-2/');
  expect((await story(29)).slug).toBe('cafe');
});

test('pictures go through the upload pipeline; missing ones are reported and dropped', async () => {
  const s2 = await story(2);
  const [image] = nodesOf(s2.doc, 'image');
  expect(image.attrs).toEqual({ key: 'stories/wordpress/2019/05/tower.jpg', alt: 'Tower at dusk', caption: 'The tower at dusk.', credit: 'Ana Ruiz' });
  const stored = await t.ctx.storage.get('stories/wordpress/2019/05/tower.jpg');
  expect((await sharp(stored!).metadata()).width).toBe(800); // the original, not the 300 px copy
  expect(reportOf(first, 2).missingImages).toEqual([]);

  const s3 = await story(3);
  expect(nodesOf(s3.doc, 'image')).toEqual([]);
  expect(s3.body).toBe('Before.\n\nAfter.');
  expect(reportOf(first, 3).missingImages).toEqual([`${U}/2019/05/gone-300x200.jpg`]);

  const [gallery] = nodesOf((await story(4)).doc, 'gallery');
  expect(gallery.attrs!.items).toEqual([
    { key: 'stories/wordpress/2019/06/gal1.jpg', alt: 'First', credit: '', caption: 'One' },
    { key: 'stories/wordpress/2019/06/gal2.png', alt: 'Second', credit: '', caption: '' },
  ]);
  expect(reportOf(first, 4).missingImages).toEqual([`${U}/2019/05/gone.jpg`]);

  const s19 = await story(19);
  expect(s19).toMatchObject({ image_key: 'stories/wordpress/2019/05/tower.jpg', image_alt: 'The CN Tower' });
  const s20 = await story(20);
  expect(s20.image_key).toBeNull();
  expect(reportOf(first, 20).missingImages).toEqual([`featured image: ${U}/2019/05/gone.jpg`]);

  const [inline] = nodesOf((await story(28)).doc, 'image');
  expect(inline.attrs).toMatchObject({ key: 'stories/wordpress/2019/05/tower.jpg', alt: 'small tower' });

  const blockGallery = nodesOf((await story(26)).doc, 'gallery')[0];
  expect((blockGallery.attrs!.items as Array<{ alt: string; caption: string }>).map((i) => [i.alt, i.caption])).toEqual([['G1', 'Cap one'], ['G2', '']]);
  expect(nodesOf((await story(26)).doc, 'youtube')).toHaveLength(1);
});

test('videos, shortcodes and what is dropped', async () => {
  expect(nodesOf((await story(5)).doc, 'youtube').map((n) => n.attrs)).toEqual([{ videoId: 'dQw4w9WgXcQ' }]);
  expect(nodesOf((await story(6)).doc, 'youtube').map((n) => n.attrs)).toEqual([{ videoId: 'dQw4w9WgXcQ', start: 30 }]);
  expect((await story(6)).body_html).toContain('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=30');
  expect(nodesOf((await story(7)).doc, 'youtube')).toEqual([]);
  expect(reportOf(first, 7).dropped).toEqual({ iframe: 1 });
  expect(nodesOf((await story(8)).doc, 'youtube')).toHaveLength(1);
  expect(reportOf(first, 9).dropped).toEqual({ shortcode: 2 });
  expect((await story(9)).body).toBe('Write to us:\n\nClick here and [sic] stays.');
  expect(reportOf(first, 10).dropped).toEqual({ table: 1 });
  expect(reportOf(first, 11).dropped).toEqual({ script: 1, style: 1 });
  expect(reportOf(first, 11).missingImages).toEqual(['x']);
  expect((await story(11)).body).toBe('Hello\n\nClicky');
  expect(reportOf(first, 13).dropped).toEqual({ 'unsafe link': 3 });
  expect((await story(13)).body_html).toBe('<p>bad, worse, data and <a href="/food/">good</a>.</p>');
  expect(reportOf(first, 25).dropped).toEqual({ form: 1 });
  expect(formatReport(first)).toContain('dropped: 1 table');
});

test('lists, quotes, headings and rules', async () => {
  const s12 = await story(12);
  expect(s12.body_html).toBe('<ul><li><p>one</p><ul><li><p>nested one</p></li><li><p>nested two</p></li></ul></li><li><p>two</p></li></ul>\n<ol start="3"><li><p>three</p></li><li><p>four</p></li></ol>');
  expect((await story(14)).body_html).toBe('<h2>One</h2>\n<h2>Two</h2>\n<h3>Three</h3>\n<h3>Six</h3>\n<blockquote><p>A quote</p><p>in two paragraphs</p></blockquote>\n<hr>\n<p>End.</p>');
  const empty = await story(27);
  expect(empty.doc).toEqual({ type: 'doc', content: [{ type: 'paragraph' }] });
  expect((await story(30)).body).toBe('Styled text underlined1');
});

test('old WordPress paths answer for the story', async () => {
  const history = await t.ctx.db('article_path_history as h').join('articles as a', 'a.id', 'h.article_id').whereNotNull('a.wordpress_guid').select('h.path', 'a.wordpress_guid');
  const to = (p: string) => history.find((h: { path: string }) => h.path === p)?.wordpress_guid;
  expect(to('/2019/05/17/post-1/')).toBe(guid(1));
  expect(to('/?p=1')).toBe(guid(1));
  expect(to('/?p=17')).toBe(guid(17));
  expect(to('/2019/05/18/same-slug/')).toBe(guid(24));
  expect(to('/2019/05/17/%e6%9d%b1%e4%ba%ac-caf%c3%a9/')).toBe(guid(29));
  expect(history.some((h: { path: string }) => h.path.startsWith('/about'))).toBe(false);
});

test('a second run updates every story and duplicates nothing', async () => {
  const count = async (table: string) => Number((await t.ctx.db(table).count({ n: '*' }).first())!.n);
  const before = { articles: await count('articles'), history: await count('article_path_history') };
  // The second export moves post 1 to another category and changes its text.
  const moved = posts.map((p) => (p.id === 1 ? { ...p, categories: [culture], content: 'Rewritten.' } : p));
  writeWxr(file, [...attachments, ...moved]);
  const second = await importWordPress(t.ctx.db, t.ctx.storage, file, { mediaDir });
  expect(second).toMatchObject({ imported: 0, updated: 30, skipped: 0 });
  expect(await count('articles')).toBe(before.articles);
  const s1 = await story(1);
  expect(s1).toMatchObject({ path: '/culture/2019/05/post-1/', body: 'Rewritten.', version: 2 });
  // Its first path now redirects too; nothing else was added.
  expect(await count('article_path_history')).toBe(before.history + 1);
  expect(await t.ctx.db('article_path_history').where('path', '/food/2019/05/post-1/').first('article_id')).toEqual({ article_id: s1.id });
  // Paths made unique stay as they were.
  expect((await story(24)).path).toBe('/food/2019/05/same-slug-2/');
  const revisions = await t.ctx.db('article_revisions').where('article_id', s1.id).orderBy('id').select('reason', 'version');
  expect(revisions).toEqual([{ reason: 'import', version: 1 }, { reason: 'import', version: 2 }]);
}, 60_000);

test('helpers: uploads paths, keys, slugs and old paths', () => {
  expect(uploadsPath(`${U}/2019/05/a%20b.jpg`)).toBe('2019/05/a b.jpg');
  expect(uploadsPath('/wp-content/uploads/../../etc/passwd')).toBeNull();
  expect(uploadsPath('https://elsewhere.com/pic.jpg')).toBeNull();
  expect(uploadsPath('2019/05/x.jpg')).toBe('2019/05/x.jpg');
  expect(wordpressImageKey('2019/05/A b.JPEG', 'jpg')).toBe('stories/wordpress/2019/05/a-b.jpg');
  expect(wordpressImageKey('2019/05/anim.gif', 'jpg')).toBe('stories/wordpress/2019/05/anim-gif.jpg');
  expect(storySlug('', 'Hello, World!', 3)).toBe('hello-world');
  expect(storySlug('', '', 3)).toBe('post-3');
  expect(oldPaths({ link: 'https://old.example.com/2019/05/17/x/', guid: 'https://old.example.com/?p=5', postId: 5 })).toEqual(['/2019/05/17/x/', '/?p=5']);
});
