import { storyDocError, type StoryNode } from '../../../shared/newsroom';
import { renderStoryDoc } from '../articles/story-render';
import { expandShortcodes, htmlText, htmlToDoc, splitCredit, wpautop, youtubeVideo, type HtmlToDocOptions } from './html-to-doc';

const found: HtmlToDocOptions = {
  resolveImage: async (src) => (src.includes('missing') ? null : `stories/wordpress/${src.split('/').pop()}`),
  attachment: (id) => (id === 1 ? { url: 'https://old/wp-content/uploads/2019/05/one.jpg', alt: 'One', caption: 'First. Photo: Bo Chen' } : undefined),
};

async function convert(html: string, opts: Partial<HtmlToDocOptions> = {}) {
  const r = await htmlToDoc(html, { ...found, ...opts });
  expect(storyDocError(r.doc)).toBeNull();
  return { ...r, html: renderStoryDoc(r.doc).html, text: renderStoryDoc(r.doc).text };
}

const text = (t: string, marks?: StoryNode['marks']): StoryNode => (marks ? { type: 'text', text: t, marks } : { type: 'text', text: t });

describe('wpautop', () => {
  test('blank lines make paragraphs, single line breaks <br>, blocks stand alone', () => {
    expect(wpautop('One\ntwo\n\nThree')).toBe('<p>One<br />\ntwo</p>\n<p>Three</p>\n');
    expect(wpautop('<h2>Title</h2>\nText')).toBe('<h2>Title</h2>\n<p>Text</p>\n');
    expect(wpautop('<pre>a\n\nb</pre>')).toContain('<pre>a\n\nb</pre>');
    expect(wpautop('   ')).toBe('');
  });
});

describe('htmlToDoc', () => {
  test('paragraphs with marks, links and breaks; whitespace collapsed as a browser would', async () => {
    const r = await convert('Hello   <b>bold <i>both</i></b>\nnext line\n\n<a href="https://x.org/a">link <strong>strong</strong></a>');
    expect(r.doc.content).toEqual([
      { type: 'paragraph', content: [text('Hello '), text('bold ', [{ type: 'bold' }]), text('both', [{ type: 'bold' }, { type: 'italic' }]), { type: 'hardBreak' }, text('next line')] },
      { type: 'paragraph', content: [text('link ', [{ type: 'link', attrs: { href: 'https://x.org/a' } }]), text('strong', [{ type: 'link', attrs: { href: 'https://x.org/a' } }, { type: 'bold' }])] },
    ]);
    expect(r.dropped).toEqual({});
  });

  test('javascript:, data: and vbscript: links lose their link and are counted; the words stay', async () => {
    const r = await convert('<a href="javascript:alert(1)">a</a> <a href=" javascript:alert(1)">b</a> <a href="data:text/html;base64,xx">c</a> <a href="vbscript:x">d</a> <a href="mailto:a@b.c">e</a> <a name="x">f</a>');
    expect(r.html).toBe('<p>a b c d <a href="mailto:a@b.c" rel="noopener nofollow">e</a> f</p>');
    expect(r.dropped).toEqual({ 'unsafe link': 4 });
  });

  test('headings: h1 and h2 become level 2, h3 to h6 level 3', async () => {
    const r = await convert('<h1>A</h1><h2>B</h2><h3>C</h3><h5>D</h5>');
    expect(r.doc.content.map((n) => n.attrs?.level)).toEqual([2, 2, 3, 3]);
  });

  test('nested lists, an ordered list with its start, text loose in a list', async () => {
    const r = await convert('<ol start="4"><li>a<ol><li>b</li></ol></li><li></li></ol><ul>loose<li>x</li></ul>');
    expect(r.html).toBe('<ol start="4"><li><p>a</p><ol><li><p>b</p></li></ol></li></ol>\n<ul><li><p>loose</p></li><li><p>x</p></li></ul>');
  });

  test('blockquotes and rules; empty quotes and paragraphs of &nbsp; disappear', async () => {
    const r = await convert('<blockquote><p>Q</p></blockquote><blockquote> </blockquote><p>&nbsp;</p><hr>');
    expect(r.html).toBe('<blockquote><p>Q</p></blockquote>\n<hr>');
  });

  test('tables, scripts, styles, forms, other iframes, objects are dropped and counted', async () => {
    const r = await convert('<table><tr><td>t</td></tr></table><script>bad()</script><style>x{}</style><form><input></form><iframe src="https://maps.google.com/x"></iframe><object data="x"></object><noscript>n</noscript>Kept');
    expect(r.dropped).toEqual({ table: 1, script: 1, style: 1, form: 1, iframe: 1, object: 1, noscript: 1 });
    expect(r.text).toBe('Kept');
  });

  test('event handlers and style attributes never reach the HTML', async () => {
    const r = await convert('<p onclick="x()" style="color:red"><span onmouseover="y()">hi</span></p><svg onload="z()"><text>s</text></svg>');
    expect(r.html).toBe('<p>hi</p>');
    expect(r.dropped).toEqual({ svg: 1 });
  });

  test('images: caption shortcodes give caption and credit; an image in a link or a paragraph stands on its own', async () => {
    const r = await convert('Before <a href="https://old/full.jpg"><img src="https://old/wp-content/uploads/2019/05/pic.jpg" alt="Alt"></a> after\n\n[caption id="attachment_1" width="300"]<img src="https://old/wp-content/uploads/2019/05/cap.jpg" alt="Cap" /> A fine view (Photo by Ana Ruiz)[/caption]');
    expect(r.doc.content).toEqual([
      { type: 'paragraph', content: [text('Before')] },
      { type: 'image', attrs: { key: 'stories/wordpress/pic.jpg', alt: 'Alt', credit: '', caption: '' } },
      { type: 'paragraph', content: [text('after')] },
      { type: 'image', attrs: { key: 'stories/wordpress/cap.jpg', alt: 'Cap', credit: 'Ana Ruiz', caption: 'A fine view' } },
    ]);
  });

  test('images that cannot be found are dropped and listed once; what they leave empty goes too', async () => {
    const r = await convert('<ul><li><img src="/missing.jpg"></li></ul><img src="/missing.jpg"><p>Text</p>');
    expect(r.doc.content).toEqual([{ type: 'paragraph', content: [text('Text')] }]);
    expect(r.missingImages).toEqual(['/missing.jpg']);
  });

  test('[gallery ids] becomes a gallery of the attachments found', async () => {
    const r = await convert('[gallery ids="1,2" columns="3"]');
    expect(r.doc.content).toEqual([{ type: 'gallery', attrs: { items: [{ key: 'stories/wordpress/one.jpg', alt: 'One', credit: 'Bo Chen', caption: 'First.' }] } }]);
    expect(r.missingImages).toEqual(['attachment #2']);
  });

  test('YouTube: a URL on its own line, iframes, [embed] and [youtube]; start times kept', async () => {
    const r = await convert('https://youtu.be/dQw4w9WgXcQ?t=90\n\n<iframe src="//www.youtube-nocookie.com/embed/dQw4w9WgXcQ"></iframe>\n\n[embed]https://www.youtube.com/watch?v=dQw4w9WgXcQ[/embed]\n\n[youtube https://www.youtube.com/watch?v=dQw4w9WgXcQ]\n\nSee https://www.youtube.com/watch?v=dQw4w9WgXcQ in text.\n\n[embed]https://vimeo.com/1[/embed]');
    expect(r.doc.content.map((n) => n.type)).toEqual(['youtube', 'youtube', 'youtube', 'youtube', 'paragraph']);
    expect(r.doc.content[0].attrs).toEqual({ videoId: 'dQw4w9WgXcQ', start: 90 });
    expect(r.dropped).toEqual({ embed: 1 });
  });

  test('other shortcodes are removed (their inner text kept) and counted; brackets that are not shortcodes stay', async () => {
    const r = await convert('[contact-form-7 id="1"] [su_note]Note[/su_note] [1] [sic] [[gallery]]');
    expect(r.text).toBe('Note [1] [sic] [gallery]');
    expect(r.dropped).toEqual({ shortcode: 2 });
  });

  test('block-editor markup: comments ignored, a gallery of figures, an embed', async () => {
    const r = await convert('<!-- wp:paragraph --><p>P</p><!-- /wp:paragraph --><figure class="wp-block-gallery"><figure><img src="/wp-content/uploads/2019/05/a.jpg" alt="A"><figcaption>Ca</figcaption></figure><figure><img src="/wp-content/uploads/2019/05/b.jpg"></figure></figure><figure class="wp-block-embed"><div>https://www.youtube.com/watch?v=dQw4w9WgXcQ</div><figcaption>Video caption</figcaption></figure>');
    expect(r.doc.content.map((n) => n.type)).toEqual(['paragraph', 'gallery', 'youtube']);
    expect(r.doc.content[2].attrs).toEqual({ videoId: 'dQw4w9WgXcQ', caption: 'Video caption' });
  });

  test('an empty post is an empty document; broken markup still converts', async () => {
    expect((await convert('')).doc).toEqual({ type: 'doc', content: [{ type: 'paragraph' }] });
    expect((await convert('<p>open <b>bold <i>and</p> more')).text).toBe('open bold and\n\nmore');
  });
});

test('helpers', () => {
  expect(youtubeVideo('https://www.youtube.com/shorts/dQw4w9WgXcQ')).toEqual({ videoId: 'dQw4w9WgXcQ' });
  expect(youtubeVideo('https://www.youtube.com/watch?v=short')).toBeNull();
  expect(youtubeVideo('https://evil.com/watch?v=dQw4w9WgXcQ')).toBeNull();
  expect(splitCredit('Photo: Ana')).toEqual({ caption: '', credit: 'Ana' });
  expect(splitCredit('Just a caption')).toEqual({ caption: 'Just a caption', credit: '' });
  expect(splitCredit('Skyline. Credit: City of Toronto')).toEqual({ caption: 'Skyline.', credit: 'City of Toronto' });
  expect(htmlText('Caf&eacute; &amp; <b>bar</b>')).toBe('Café & bar');
  const dropped: Record<string, number> = {};
  expect(expandShortcodes('[gallery]', dropped)).toBe('');
  expect(dropped).toEqual({ shortcode: 1 });
});
