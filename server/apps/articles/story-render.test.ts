import { liveCardsIn, renderStoryDoc, renderValidStoryDoc } from './story-render';
import { storyDocFromParagraphs, type StoryDoc, type StoryNode } from '../../../shared/newsroom';

// renderStoryDoc (issue 37, docs/newsroom.md "The story document"): each node and mark of the
// schema has one way to be written, every text and attribute is escaped, and the plain text is
// the blocks' words separated by blank lines.

const doc = (...content: StoryNode[]): StoryDoc => ({ type: 'doc', content });
const text = (t: string, marks?: StoryNode['marks']): StoryNode => (marks ? { type: 'text', text: t, marks } : { type: 'text', text: t });
const p = (...content: StoryNode[]): StoryNode => ({ type: 'paragraph', content });
const html = (...content: StoryNode[]) => renderStoryDoc(doc(...content)).html;

describe('renderStoryDoc: blocks', () => {
  test('a paragraph is a <p>; blocks are separated by a newline', () => {
    expect(html(p(text('One.')), p(text('Two.')))).toBe('<p>One.</p>\n<p>Two.</p>');
  });

  test('an empty paragraph prints nothing (not an empty <p>)', () => {
    expect(html({ type: 'paragraph' }, p(text('Words.')), { type: 'paragraph', content: [] })).toBe('\n<p>Words.</p>\n');
  });

  test('headings are h2 and h3; any other level is an h2', () => {
    expect(html({ type: 'heading', attrs: { level: 2 }, content: [text('Where')] })).toBe('<h2>Where</h2>');
    expect(html({ type: 'heading', attrs: { level: 3 }, content: [text('When')] })).toBe('<h3>When</h3>');
    expect(html({ type: 'heading', attrs: { level: 1 }, content: [text('Big')] })).toBe('<h2>Big</h2>');
    expect(html({ type: 'heading', content: [text('No level')] })).toBe('<h2>No level</h2>');
  });

  test('lists: <ul>, <ol> with its start when it is above 1, <li> holding the blocks', () => {
    const li = (t: string): StoryNode => ({ type: 'listItem', content: [p(text(t))] });
    expect(html({ type: 'bulletList', content: [li('a'), li('b')] })).toBe('<ul><li><p>a</p></li><li><p>b</p></li></ul>');
    expect(html({ type: 'orderedList', content: [li('a')] })).toBe('<ol><li><p>a</p></li></ol>');
    expect(html({ type: 'orderedList', attrs: { start: 1 }, content: [li('a')] })).toBe('<ol><li><p>a</p></li></ol>');
    expect(html({ type: 'orderedList', attrs: { start: 4, type: '1' }, content: [li('d')] })).toBe('<ol start="4"><li><p>d</p></li></ol>');
    // Not an integer: no start attribute at all (nothing of the value is printed).
    expect(html({ type: 'orderedList', attrs: { start: '4" onclick="x' }, content: [li('d')] })).toBe('<ol><li><p>d</p></li></ol>');
    // Nested lists.
    expect(html({ type: 'bulletList', content: [{ type: 'listItem', content: [p(text('outer')), { type: 'bulletList', content: [li('inner')] }] }] })).toBe(
      '<ul><li><p>outer</p><ul><li><p>inner</p></li></ul></li></ul>',
    );
  });

  test('blockquote, horizontal rule, hard break', () => {
    expect(html({ type: 'blockquote', content: [p(text('Quoted.')), p(text('Still quoted.'))] })).toBe('<blockquote><p>Quoted.</p><p>Still quoted.</p></blockquote>');
    expect(html({ type: 'horizontalRule' })).toBe('<hr>');
    expect(html(p(text('Line one'), { type: 'hardBreak' }, text('line two')))).toBe('<p>Line one<br>line two</p>');
  });

  test('an image is a figure: the photo viewer rendition, alt, lazy, a caption then the credit', () => {
    expect(html({ type: 'image', attrs: { key: 'stories/2026/patio.jpg', alt: 'The patio at noon', credit: 'Photo: Ana Ruiz', caption: 'Lunch on the patio.' } })).toBe(
      '<figure class="story-image"><img src="/media/stories/2026/patio.jpg?w=1080&amp;cmd=fit" alt="The patio at noon" width="1080" height="720" loading="lazy" decoding="async">' +
        '<figcaption>Lunch on the patio. <span class="story-credit">Photo: Ana Ruiz</span></figcaption></figure>',
    );
    // Only a credit; only a caption; neither (no figcaption).
    expect(html({ type: 'image', attrs: { key: 'a.jpg', alt: 'A', credit: 'Photo: B' } })).toContain('<figcaption><span class="story-credit">Photo: B</span></figcaption>');
    expect(html({ type: 'image', attrs: { key: 'a.jpg', alt: 'A', caption: 'Only a caption' } })).toContain('<figcaption>Only a caption</figcaption>');
    expect(html({ type: 'image', attrs: { key: 'a.jpg', alt: '' } })).toBe(
      '<figure class="story-image"><img src="/media/a.jpg?w=1080&amp;cmd=fit" alt="" width="1080" height="720" loading="lazy" decoding="async"></figure>',
    );
    // No key: nothing.
    expect(html({ type: 'image', attrs: { key: '', alt: 'x' } })).toBe('');
  });

  test('a key’s characters are URL-encoded in the src, so no key can leave the /media/ path', () => {
    expect(html({ type: 'image', attrs: { key: 'a b/c"d.jpg', alt: '' } })).toContain('src="/media/a%20b/c%22d.jpg?w=1080');
  });

  test('a gallery is a sideways-scrolling list of figures, labelled with its count', () => {
    const out = html({ type: 'gallery', attrs: { items: [
      { key: 'g/1.jpg', alt: 'First', credit: 'Photo: A', caption: 'One' },
      { key: 'g/2.jpg', alt: 'Second', credit: '', caption: '' },
    ] } });
    expect(out).toBe(
      '<section class="story-gallery" aria-label="Gallery, 2 pictures"><ul class="story-gallery__slides" tabindex="0">' +
        '<li class="story-gallery__slide" aria-label="1 of 2"><figure class="story-gallery__figure"><img src="/media/g/1.jpg?w=1080&amp;cmd=fit" alt="First" width="1080" height="720" loading="lazy" decoding="async"><figcaption>One <span class="story-credit">Photo: A</span></figcaption></figure></li>' +
        '<li class="story-gallery__slide" aria-label="2 of 2"><figure class="story-gallery__figure"><img src="/media/g/2.jpg?w=1080&amp;cmd=fit" alt="Second" width="1080" height="720" loading="lazy" decoding="async"></figure></li>' +
        '</ul></section>',
    );
    expect(html({ type: 'gallery', attrs: { items: [{ key: 'g/1.jpg', alt: 'a', credit: '', caption: '' }] } })).toContain('aria-label="Gallery, 1 picture"');
    expect(html({ type: 'gallery', attrs: { items: [] } })).toBe('');
  });

  test('a YouTube video is the privacy-enhanced player, with its start and a caption', () => {
    expect(html({ type: 'youtube', attrs: { videoId: 'dQw4w9WgXcQ', start: 42, caption: 'The market at dawn' } })).toBe(
      '<figure class="story-video"><div class="video-frame"><iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=42" title="The market at dawn" width="960" height="540" loading="lazy" ' +
        'allow="accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe></div>' +
        '<figcaption>The market at dawn</figcaption></figure>',
    );
    const plain = html({ type: 'youtube', attrs: { videoId: 'a-b_c-d_e-f' } });
    expect(plain).toContain('src="https://www.youtube-nocookie.com/embed/a-b_c-d_e-f"');
    expect(plain).toContain('title="Video"');
    expect(plain).not.toContain('<figcaption>');
    expect(html({ type: 'youtube', attrs: { videoId: 'a-b_c-d_e-f', start: 0 } })).toContain('/embed/a-b_c-d_e-f"');
    // Not an 11-character id: nothing.
    expect(html({ type: 'youtube', attrs: { videoId: 'short' } })).toBe('');
    expect(html({ type: 'youtube', attrs: { videoId: 'abc"def"ghi' } })).toBe('');
  });

  test('a live card is a marker the page fills at read time, and is listed in cards', () => {
    const r = renderStoryDoc(doc(
      { type: 'liveCard', attrs: { kind: 'place', id: 12, label: 'Grey Gardens' } },
      { type: 'liveCard', attrs: { kind: 'event', id: 3, label: '' } },
      { type: 'liveCard', attrs: { kind: 'bestOf', id: 7 } },
      { type: 'liveCard', attrs: { kind: 'person', id: 1 } },
      { type: 'liveCard', attrs: { kind: 'place', id: -1 } },
    ));
    expect(r.html).toBe('<!--live-card:place:12-->\n<!--live-card:event:3-->\n<!--live-card:bestOf:7-->\n\n');
    expect(r.cards).toEqual([{ kind: 'place', id: 12 }, { kind: 'event', id: 3 }, { kind: 'bestOf', id: 7 }]);
    expect(liveCardsIn(r.html)).toEqual(r.cards);
  });

  test('a node outside the schema prints nothing', () => {
    expect(html({ type: 'table', content: [p(text('cell'))] }, { type: 'codeBlock', content: [text('<b>')] })).toBe('\n');
  });
});

describe('renderStoryDoc: marks', () => {
  test('bold and italic are <strong> and <em>', () => {
    expect(html(p(text('loud', [{ type: 'bold' }]), text(' and '), text('slanted', [{ type: 'italic' }])))).toBe('<p><strong>loud</strong> and <em>slanted</em></p>');
    expect(html(p(text('both', [{ type: 'bold' }, { type: 'italic' }])))).toBe('<p><em><strong>both</strong></em></p>');
  });

  test('a link: a site path as it is; another site with rel="noopener nofollow"; mailto too', () => {
    expect(html(p(text('here', [{ type: 'link', attrs: { href: '/food/2026/11/tacos/' } }])))).toBe('<p><a href="/food/2026/11/tacos/">here</a></p>');
    expect(html(p(text('top', [{ type: 'link', attrs: { href: '#top' } }])))).toBe('<p><a href="#top">top</a></p>');
    expect(html(p(text('there', [{ type: 'link', attrs: { href: 'https://example.com/a?b=1&c=2' } }])))).toBe('<p><a href="https://example.com/a?b=1&amp;c=2" rel="noopener nofollow">there</a></p>');
    expect(html(p(text('write', [{ type: 'link', attrs: { href: 'mailto:tips@example.com' } }])))).toBe('<p><a href="mailto:tips@example.com" rel="noopener nofollow">write</a></p>');
    // The stored target and rel are TipTap's; the renderer's own win (no target at all).
    expect(html(p(text('x', [{ type: 'link', attrs: { href: 'https://example.com/', target: '_blank', rel: 'opener' } }])))).toBe('<p><a href="https://example.com/" rel="noopener nofollow">x</a></p>');
  });

  test('a link is outermost, so a bold word in a link stays in one <a>', () => {
    expect(html(p(text('bold link', [{ type: 'link', attrs: { href: '/a/' } }, { type: 'bold' }])))).toBe('<p><a href="/a/"><strong>bold link</strong></a></p>');
  });

  test('a link whose href is not safe is dropped; the text stays', () => {
    for (const href of ['javascript:alert(1)', ' JaVaScRiPt:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox', '//evil.example/', 42, undefined]) {
      expect(html(p(text('words', [{ type: 'link', attrs: { href } }])))).toBe('<p>words</p>');
    }
  });

  test('an unknown mark adds nothing', () => {
    expect(html(p(text('struck', [{ type: 'strike' }, { type: 'code' }])))).toBe('<p>struck</p>');
  });
});

describe('renderStoryDoc: escaping', () => {
  test('text and every attribute are escaped', () => {
    const evil = `<script>alert("x")</script> & 'q'`;
    const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;';
    expect(html(p(text(evil)))).toBe(`<p>${escaped}</p>`);
    const fig = html({ type: 'image', attrs: { key: 'a.jpg', alt: evil, credit: evil, caption: evil } });
    expect(fig).toContain(`alt="${escaped}"`);
    expect(fig).toContain(`<figcaption>${escaped} <span class="story-credit">${escaped}</span></figcaption>`);
    const video = html({ type: 'youtube', attrs: { videoId: 'dQw4w9WgXcQ', caption: evil } });
    expect(video).toContain(`title="${escaped}"`);
    expect(video).toContain(`<figcaption>${escaped}</figcaption>`);
    expect(html(p(text('x', [{ type: 'link', attrs: { href: '/a/"onmouseover="alert(1)' } }])))).toBe('<p><a href="/a/&quot;onmouseover=&quot;alert(1)">x</a></p>');
    expect(html({ type: 'liveCard', attrs: { kind: 'place', id: 1, label: '--><script>alert(1)</script>' } })).toBe('<!--live-card:place:1-->');
  });
});

describe('renderStoryDoc: plain text', () => {
  test('blocks separated by blank lines: paragraphs, headings, list items, quotes, captions, card labels', () => {
    const r = renderStoryDoc(doc(
      { type: 'heading', attrs: { level: 2 }, content: [text('The market')] },
      p(text('It opens at '), text('seven', [{ type: 'bold' }]), text('.')),
      { type: 'bulletList', content: [{ type: 'listItem', content: [p(text('Bread'))] }, { type: 'listItem', content: [p(text('Cheese'))] }] },
      { type: 'blockquote', content: [p(text('“Come early.”'))] },
      { type: 'horizontalRule' },
      { type: 'image', attrs: { key: 'a.jpg', alt: 'alt is not text', credit: 'credit is not text', caption: 'The stalls.' } },
      { type: 'gallery', attrs: { items: [{ key: 'b.jpg', alt: 'x', credit: 'y', caption: 'Gallery one.' }, { key: 'c.jpg', alt: 'x', credit: 'y', caption: '' }] } },
      { type: 'youtube', attrs: { videoId: 'dQw4w9WgXcQ', caption: 'A video.' } },
      { type: 'liveCard', attrs: { kind: 'place', id: 4, label: 'St. Lawrence Market' } },
      p(text('Line one'), { type: 'hardBreak' }, text('line two')),
    ));
    expect(r.text).toBe(['The market', 'It opens at seven.', 'Bread', 'Cheese', '“Come early.”', 'The stalls.', 'Gallery one.', 'A video.', 'St. Lawrence Market', 'Line one\nline two'].join('\n\n'));
    expect(r.text).not.toContain('alt is not text');
    expect(r.text).not.toContain('credit is not text');
  });

  test('the text is the words as written, not escaped', () => {
    expect(renderStoryDoc(doc(p(text('Fish & chips <£10> “good”')))).text).toBe('Fish & chips <£10> “good”');
  });

  test('an empty document: no HTML, no text, no cards', () => {
    expect(renderStoryDoc(doc())).toEqual({ html: '', text: '', cards: [] });
    expect(renderStoryDoc(storyDocFromParagraphs(''))).toEqual({ html: '', text: '', cards: [] });
  });

  test('today’s paragraph bodies round-trip: the same paragraphs, trimmed, blank runs collapsed', () => {
    const r = renderStoryDoc(storyDocFromParagraphs('  First.  \n\n\n\nSecond & <third>.\nSame paragraph.\n\n \n\nLast'));
    expect(r.html).toBe('<p>First.</p>\n<p>Second &amp; &lt;third&gt;.\nSame paragraph.</p>\n<p>Last</p>');
    expect(r.text).toBe('First.\n\nSecond & <third>.\nSame paragraph.\n\nLast');
  });
});

describe('renderValidStoryDoc', () => {
  test('renders a valid document and throws the validator’s sentence for anything else', () => {
    expect(renderValidStoryDoc(doc(p(text('ok')))).html).toBe('<p>ok</p>');
    expect(() => renderValidStoryDoc(doc({ type: 'table' }))).toThrow('Unknown node “table” at body.content[0].');
    expect(() => renderValidStoryDoc('<p>html</p>')).toThrow('The body must be a story document.');
  });
});
