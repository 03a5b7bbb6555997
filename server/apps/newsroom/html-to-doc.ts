import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';
import { safeHref, STORY_LIMITS, YOUTUBE_ID_RE, type GalleryItem, type StoryDoc, type StoryMark, type StoryNode } from '../../../shared/newsroom';

// WordPress HTML (a post's content:encoded) as a story document (shared/newsroom.ts), for the
// WordPress import (issue 37). WordPress keeps paragraphs as text between blank lines and
// writes <p> only when a page is shown (wpautop), and keeps captions, galleries and embeds as
// shortcodes; both are turned into HTML first, then the HTML is read with parse5 (as a browser
// would, so broken markup still parses) and walked into the schema's nodes only. Whatever has
// no node (tables, scripts, styles, forms, iframes other than YouTube, unknown shortcodes) is
// dropped and counted, so the import can say what each post lost. Images become `image` and
// `gallery` nodes once the caller has put the file through the upload pipeline
// (`resolveImage` answers the media key, or null when the file cannot be found: dropped and
// listed as missing).

type PNode = DefaultTreeAdapterMap['node'];
type PElement = DefaultTreeAdapterMap['element'];
type PParent = DefaultTreeAdapterMap['parentNode'];

export interface WpAttachment {
  url: string;
  alt: string;
  caption: string;
}

export interface HtmlToDocOptions {
  /** The media key of an image (its src as written in the post), or null when it is not found. */
  resolveImage(src: string): Promise<string | null>;
  /** An attachment by its WordPress id (galleries name their pictures by id). */
  attachment?(id: number): WpAttachment | undefined;
  /** Whether the HTML is WordPress's stored form (paragraphs as blank lines); default true. */
  autop?: boolean;
}

export interface HtmlToDocResult {
  doc: StoryDoc;
  /** What had no place in a story, by kind (`table`, `script`, `shortcode`, `iframe` …): how many. */
  dropped: Record<string, number>;
  /** The images (src, or `attachment #id`) that could not be found, in order, each once. */
  missingImages: string[];
}

// ## Shortcodes

/** Self-closing shortcodes WordPress and its common plugins register, dropped even without attributes. */
const KNOWN_SHORTCODES = new Set(['audio', 'video', 'playlist', 'contact-form-7', 'contact-form', 'wpforms', 'gravityform', 'instagram', 'tweet', 'soundcloud', 'vimeo', 'ad', 'adsense', 'toc', 'more', 'caption', 'gallery', 'embed', 'youtube']);

function shortcodeAttrs(raw: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of raw.matchAll(/([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+))/g)) attrs[m[1].toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? '';
  return attrs;
}

function escapeAttr(v: string): string {
  return v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** The shortcodes with a node as HTML placeholders; the others removed (their inner text kept) and counted. */
export function expandShortcodes(html: string, dropped: Record<string, number>): string {
  let text = html;
  // [caption id="attachment_12" caption="…"]<a><img></a> The caption[/caption]
  text = text.replace(/(?<!\[)\[caption\b([^\]]*)\]([\s\S]*?)\[\/caption\](?!\])/gi, (_m, rawAttrs: string, inner: string) => {
    const attrs = shortcodeAttrs(rawAttrs);
    const split = /^\s*((?:<a\b[^>]*>\s*)?<img\b[^>]*>(?:\s*<\/a>)?)([\s\S]*)$/i.exec(inner);
    const image = split ? split[1] : inner;
    const caption = attrs.caption ?? (split ? split[2] : '');
    return `<figure data-wp-caption="1">${image.replace(/\n/g, ' ')}<figcaption>${caption.replace(/\n/g, ' ')}</figcaption></figure>`;
  });
  text = text.replace(/(?<!\[)\[gallery\b([^\]]*)\](?!\])/gi, (_m, rawAttrs: string) => {
    const ids = (shortcodeAttrs(rawAttrs).ids ?? '').split(',').map((s) => s.trim()).filter((s) => /^\d+$/.test(s));
    if (!ids.length) {
      dropped.shortcode = (dropped.shortcode ?? 0) + 1;
      return '';
    }
    return `\n\n<figure data-wp-gallery="${ids.join(',')}"></figure>\n\n`;
  });
  text = text.replace(/(?<!\[)\[embed\b[^\]]*\]([\s\S]*?)\[\/embed\](?!\])/gi, (_m, url: string) => `\n\n<figure data-wp-embed="${escapeAttr(url.trim())}"></figure>\n\n`);
  // Jetpack: [youtube https://…] or [youtube=https://…]
  text = text.replace(/(?<!\[)\[youtube[=\s]\s*([^\]\s]+)[^\]]*\](?!\])/gi, (_m, url: string) => `\n\n<figure data-wp-embed="${escapeAttr(url.trim())}"></figure>\n\n`);

  // Everything else that is a shortcode: a name with a closing tag somewhere, attributes, a
  // closing slash, or a name WordPress registers. "[sic]" and "[1]" stay text.
  const closed = new Set([...text.matchAll(/\[\/([A-Za-z][\w-]*)\]/g)].map((m) => m[1].toLowerCase()));
  return text.replace(/\[(\[?)(\/?)([A-Za-z][\w-]*)((?:[^[\]"']|"[^"]*"|'[^']*')*?)(\/?)\](\]?)/g, (m, esc1: string, slash: string, name: string, rawAttrs: string, selfClose: string, esc2: string) => {
    const lname = name.toLowerCase();
    const isShortcode = closed.has(lname) || rawAttrs.includes('=') || selfClose === '/' || KNOWN_SHORTCODES.has(lname);
    if (!isShortcode) return m;
    if (esc1 && esc2) return m.slice(1, -1); // [[gallery]] is how WordPress writes a literal shortcode
    if (!slash) dropped.shortcode = (dropped.shortcode ?? 0) + 1;
    return esc1 + esc2;
  });
}

// ## wpautop

const BLOCKS = '(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area|blockquote|address|math|style|script|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|footer|nav|figure|figcaption|details|menu|summary|iframe)';
const BLOCK_OPEN = new RegExp(`(<${BLOCKS}[\\s/>])`, 'gi');
const BLOCK_CLOSE = new RegExp(`(</${BLOCKS}>)`, 'gi');

/**
 * WordPress's wpautop, in short: text between blank lines becomes a paragraph, a single line
 * break a <br>, and block elements are left standing on their own. <pre>, <script> and <style>
 * are kept as written.
 */
export function wpautop(input: string): string {
  let text = input.replace(/\r\n?/g, '\n');
  if (!text.trim()) return '';
  const kept: string[] = [];
  text = text.replace(/<(pre|script|style)\b[\s\S]*?<\/\1>/gi, (m) => {
    kept.push(m);
    return `<pre data-wp-kept="${kept.length - 1}"></pre>`;
  });
  text = text.replace(/<br\s*\/?>\s*<br\s*\/?>/gi, '\n\n');
  text = text.replace(BLOCK_OPEN, '\n\n$1').replace(BLOCK_CLOSE, '$1\n\n');
  // Line breaks inside a tag are not paragraphs.
  text = text.replace(/<[^<>]+>/g, (m) => m.replace(/\s+/g, ' '));
  const chunks = text.split(/\n\s*\n/).map((c) => c.trim()).filter(Boolean);
  text = chunks.map((c) => `<p>${c}</p>\n`).join('');
  text = text.replace(new RegExp(`<p>\\s*(</?${BLOCKS}[^>]*>)\\s*</p>`, 'gi'), '$1');
  text = text.replace(new RegExp(`<p>\\s*(</?${BLOCKS}[^>]*>)`, 'gi'), '$1');
  text = text.replace(new RegExp(`(</?${BLOCKS}[^>]*>)\\s*</p>`, 'gi'), '$1');
  text = text.replace(/(?<!<br \/>)\s*\n(?!$)/g, '<br />\n');
  text = text.replace(new RegExp(`(</?${BLOCKS}[^>]*>)\\s*<br />`, 'gi'), '$1');
  text = text.replace(/<br \/>(\s*<\/?(?:p|li|div|dl|dd|dt|th|pre|td|ul|ol)[^>]*>)/gi, '$1');
  return text.replace(/<pre data-wp-kept="(\d+)"><\/pre>/g, (_m, i: string) => kept[Number(i)]);
}

// ## YouTube

/** The video id (and start, in seconds) of a YouTube address, or null. */
export function youtubeVideo(raw: string): { videoId: string; start?: number } | null {
  let u: URL;
  try {
    u = new URL(raw.trim().replace(/^\/\//, 'https://'));
  } catch {
    return null;
  }
  const host = u.hostname.replace(/^(www\.|m\.)/, '');
  let id: string | null = null;
  if (host === 'youtu.be') id = u.pathname.slice(1).split('/')[0];
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    if (u.pathname === '/watch') id = u.searchParams.get('v');
    else {
      const m = /^\/(?:embed|shorts|v|live)\/([^/?#]+)/.exec(u.pathname);
      id = m ? m[1] : null;
    }
  }
  if (!id || !YOUTUBE_ID_RE.test(id)) return null;
  const t = u.searchParams.get('start') ?? u.searchParams.get('t');
  let start: number | undefined;
  if (t) {
    const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s?)?$/.exec(t);
    if (m && t) start = Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
  }
  return start ? { videoId: id, start } : { videoId: id };
}

// ## Captions and credits

const CREDIT_RES = [
  /^(.*?)[\s,;–—-]*[([]?\b(?:photos?|photograph|images?|picture|pictured)\s*(?:by|:|courtesy(?:\s+of)?|via)\s*([^)\]]+?)[)\]]?\s*$/i,
  /^(.*?)[\s,;–—-]*[([]?(?:credit|©|\(c\))\s*:?\s*([^)\]]+?)[)\]]?\s*$/i,
];

/** "The tower at dusk. Photo by Ana Ruiz" → the caption and the credit. */
export function splitCredit(text: string): { caption: string; credit: string } {
  const t = text.replace(/\s+/g, ' ').trim();
  for (const re of CREDIT_RES) {
    const m = re.exec(t);
    if (m && m[2].trim()) return { caption: m[1].trim(), credit: m[2].trim() };
  }
  return { caption: t, credit: '' };
}

const clip = (s: string, max: number) => (s.length > max ? s.slice(0, max - 1).trimEnd() + '…' : s);

// ## The walk

const DROPPED_TAGS: Record<string, string> = {
  table: 'table', script: 'script', style: 'style', form: 'form', noscript: 'noscript', object: 'object', embed: 'embed',
  video: 'video', audio: 'audio', canvas: 'canvas', svg: 'svg', math: 'math', select: 'form', input: 'form', textarea: 'form',
  button: 'form', template: 'template', link: 'link', meta: 'meta', map: 'map', area: 'map', frameset: 'iframe', frame: 'iframe',
  applet: 'object', picture: 'picture', source: 'picture',
};
const TRANSPARENT_BLOCKS = new Set(['div', 'section', 'article', 'header', 'footer', 'main', 'aside', 'nav', 'center', 'address', 'dl', 'dt', 'dd', 'details', 'summary', 'figcaption', 'hgroup', 'fieldset', 'legend', 'menu', 'p']);

/** An image node waiting for its key: the src it names. */
const pendingSrc = new WeakMap<object, string>();

function attrOf(el: PElement, name: string): string | undefined {
  return el.attrs.find((a) => a.name === name)?.value;
}

function isElement(n: PNode): n is PElement {
  return 'tagName' in n;
}

function childrenOf(n: PNode): PNode[] {
  if (isElement(n) && n.tagName === 'template') return [];
  return 'childNodes' in n ? (n as PParent).childNodes : [];
}

function textContent(n: PNode): string {
  if (n.nodeName === '#text') return (n as DefaultTreeAdapterMap['textNode']).value;
  if (isElement(n) && (n.tagName === 'script' || n.tagName === 'style')) return '';
  return childrenOf(n).map(textContent).join('');
}

function descendants(n: PNode, tag: string, found: PElement[] = []): PElement[] {
  for (const c of childrenOf(n)) {
    if (isElement(c) && c.tagName === tag) found.push(c);
    descendants(c, tag, found);
  }
  return found;
}

const sameMarks = (a: StoryMark[] | undefined, b: StoryMark[] | undefined) => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

/** Inline content as the schema wants it: adjacent texts with the same marks merged, HTML's whitespace collapsing, no empty text, no break at either end. */
function tidyInline(nodes: StoryNode[]): StoryNode[] {
  const merged: StoryNode[] = [];
  for (const n of nodes) {
    const last = merged[merged.length - 1];
    if (n.type === 'text' && last?.type === 'text' && sameMarks(last.marks, n.marks)) last.text = (last.text ?? '') + n.text;
    else merged.push(n.type === 'text' ? { ...n } : n);
  }
  let spaceBefore = true;
  for (const n of merged) {
    if (n.type === 'hardBreak') spaceBefore = true;
    else if (n.type === 'text') {
      if (spaceBefore) n.text = (n.text ?? '').replace(/^ +/, '');
      if (n.text) spaceBefore = n.text.endsWith(' ');
    }
  }
  let spaceAfter = true;
  for (let i = merged.length - 1; i >= 0; i--) {
    const n = merged[i];
    if (n.type === 'hardBreak') spaceAfter = true;
    else if (n.type === 'text') {
      if (spaceAfter) n.text = (n.text ?? '').replace(/ +$/, '');
      if (n.text) spaceAfter = false;
    }
  }
  const out = merged.filter((n) => n.type !== 'text' || n.text);
  while (out[0]?.type === 'hardBreak') out.shift();
  while (out[out.length - 1]?.type === 'hardBreak') out.pop();
  // A paragraph of nothing but non-breaking spaces (WordPress's empty line) is no paragraph.
  if (!out.some((n) => n.type === 'text' && /\S/.test((n.text ?? '').replace(/\u00a0/g, ' ')))) return [];
  return out;
}

class Sink {
  out: StoryNode[] = [];
  private inline: StoryNode[] = [];
  constructor(private readonly make: (inline: StoryNode[]) => StoryNode | null = paragraphOrVideo) {}
  text(text: string, marks: StoryMark[]) {
    if (!text) return;
    this.inline.push(marks.length ? { type: 'text', text, marks: marks.map((m) => ({ ...m })) } : { type: 'text', text });
  }
  br() {
    this.inline.push({ type: 'hardBreak' });
  }
  block(node: StoryNode | null) {
    this.flush();
    if (node) this.out.push(node);
  }
  flush() {
    const content = tidyInline(this.inline);
    this.inline = [];
    if (content.length) {
      const node = this.make(content);
      if (node) this.out.push(node);
    }
  }
}

/** A paragraph; or, when it is a YouTube address alone on its line (WordPress embeds those), the video. */
function paragraphOrVideo(content: StoryNode[]): StoryNode {
  if (content.length === 1 && content[0].type === 'text') {
    const video = /^\s*https?:\/\/\S+\s*$/.test(content[0].text ?? '') ? youtubeVideo(content[0].text ?? '') : null;
    if (video) return { type: 'youtube', attrs: { ...video } };
  }
  return { type: 'paragraph', content };
}

class Converter {
  readonly dropped: Record<string, number> = {};
  readonly missing: string[] = [];
  constructor(private readonly opts: HtmlToDocOptions) {}

  drop(kind: string) {
    this.dropped[kind] = (this.dropped[kind] ?? 0) + 1;
  }

  blocks(nodes: PNode[]): StoryNode[] {
    const sink = new Sink();
    for (const n of nodes) this.walk(n, sink, []);
    sink.flush();
    return sink.out;
  }

  image(el: PElement, caption = ''): StoryNode | null {
    const src = (attrOf(el, 'src') || attrOf(el, 'data-src') || attrOf(el, 'data-lazy-src') || '').trim();
    if (!src) return null;
    const { caption: c, credit } = splitCredit(caption);
    const attrs = { key: '', alt: clip((attrOf(el, 'alt') ?? '').trim(), STORY_LIMITS.altMax), credit: clip(credit, STORY_LIMITS.creditMax), caption: clip(c, STORY_LIMITS.captionMax) };
    pendingSrc.set(attrs, src);
    return { type: 'image', attrs };
  }

  gallery(items: Array<{ src: string; alt: string; caption: string }>): StoryNode | null {
    const list = items.slice(0, STORY_LIMITS.galleryMax).map((i) => {
      const { caption, credit } = splitCredit(i.caption);
      const item: GalleryItem = { key: '', alt: clip(i.alt.trim(), STORY_LIMITS.altMax), credit: clip(credit, STORY_LIMITS.creditMax), caption: clip(caption, STORY_LIMITS.captionMax) };
      pendingSrc.set(item, i.src);
      return item;
    });
    if (items.length > STORY_LIMITS.galleryMax) this.dropped['gallery image'] = (this.dropped['gallery image'] ?? 0) + items.length - STORY_LIMITS.galleryMax;
    return list.length ? { type: 'gallery', attrs: { items: list } } : null;
  }

  video(src: string, kind: string, caption = ''): StoryNode | null {
    const v = youtubeVideo(src);
    if (!v) {
      this.drop(kind);
      return null;
    }
    const c = caption.replace(/\s+/g, ' ').trim();
    return { type: 'youtube', attrs: c ? { ...v, caption: clip(c, STORY_LIMITS.captionMax) } : { ...v } };
  }

  figure(el: PElement, sink: Sink, marks: StoryMark[]) {
    const galleryIds = attrOf(el, 'data-wp-gallery');
    if (galleryIds !== undefined) {
      const items: Array<{ src: string; alt: string; caption: string }> = [];
      for (const id of galleryIds.split(',').map(Number)) {
        const a = this.opts.attachment?.(id);
        if (a?.url) items.push({ src: a.url, alt: a.alt, caption: a.caption });
        else this.missing.push(`attachment #${id}`);
      }
      sink.block(this.gallery(items));
      return;
    }
    const embed = attrOf(el, 'data-wp-embed');
    if (embed !== undefined) {
      sink.block(this.video(embed, 'embed'));
      return;
    }
    const captionEl = descendants(el, 'figcaption')[0];
    const caption = captionEl ? textContent(captionEl) : '';
    const imgs = descendants(el, 'img');
    if (imgs.length > 1) {
      // A block-editor gallery: figures of pictures, each with its own caption.
      const items = imgs.map((img) => {
        let fig: PNode | null = img.parentNode;
        while (fig && !(isElement(fig) && fig.tagName === 'figure')) fig = 'parentNode' in fig ? fig.parentNode : null;
        const own = fig && fig !== el ? descendants(fig, 'figcaption')[0] : undefined;
        return { src: attrOf(img, 'src') ?? '', alt: attrOf(img, 'alt') ?? '', caption: own ? textContent(own) : '' };
      }).filter((i) => i.src);
      sink.block(this.gallery(items));
      return;
    }
    if (imgs.length === 1) {
      sink.block(this.image(imgs[0], caption));
      return;
    }
    const iframe = descendants(el, 'iframe')[0];
    if (iframe) {
      sink.block(this.video(attrOf(iframe, 'src') ?? '', 'iframe', caption));
      return;
    }
    // A block-editor embed: the address as the figure's text.
    const url = /https?:\/\/\S+/.exec(textContent(el).replace(captionEl ? textContent(captionEl) : '', ''))?.[0];
    if (url && youtubeVideo(url)) {
      sink.block(this.video(url, 'embed', caption));
      return;
    }
    sink.flush();
    for (const c of childrenOf(el)) this.walk(c, sink, marks);
    sink.flush();
  }

  list(el: PElement): StoryNode | null {
    const items: StoryNode[] = [];
    let loose: PNode[] = [];
    const takeLoose = () => {
      if (loose.length) {
        const content = this.blocks(loose);
        if (content.length) items.push({ type: 'listItem', content });
      }
      loose = [];
    };
    for (const c of childrenOf(el)) {
      if (isElement(c) && c.tagName === 'li') {
        takeLoose();
        const content = this.blocks(childrenOf(c));
        if (content.length) items.push({ type: 'listItem', content });
      } else loose.push(c);
    }
    takeLoose();
    if (!items.length) return null;
    if (el.tagName === 'ol') {
      const start = Number(attrOf(el, 'start'));
      return Number.isInteger(start) && start > 1 ? { type: 'orderedList', attrs: { start }, content: items } : { type: 'orderedList', content: items };
    }
    return { type: 'bulletList', content: items };
  }

  walk(n: PNode, sink: Sink, marks: StoryMark[]): void {
    if (n.nodeName === '#text') {
      sink.text((n as DefaultTreeAdapterMap['textNode']).value.replace(/[ \t\n\r\f]+/g, ' '), marks);
      return;
    }
    if (!isElement(n)) return; // comments (<!-- wp:paragraph -->, <!--more-->)
    const tag = n.tagName;
    const kids = childrenOf(n);
    switch (tag) {
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': {
        sink.flush();
        const level = tag === 'h1' || tag === 'h2' ? 2 : 3;
        const inner = new Sink((content) => ({ type: 'heading', attrs: { level }, content }));
        for (const c of kids) this.walk(c, inner, marks);
        inner.flush();
        for (const b of inner.out) sink.block(b);
        return;
      }
      case 'ul': case 'ol':
        sink.block(this.list(n));
        return;
      case 'li': // outside a list
        sink.flush();
        for (const c of kids) this.walk(c, sink, marks);
        sink.flush();
        return;
      case 'blockquote': {
        const content = this.blocks(kids);
        sink.block(content.length ? { type: 'blockquote', content } : null);
        return;
      }
      case 'hr':
        sink.block({ type: 'horizontalRule' });
        return;
      case 'br':
        sink.br();
        return;
      case 'img':
        sink.block(this.image(n));
        return;
      case 'figure':
        this.figure(n, sink, marks);
        return;
      case 'iframe':
        sink.block(this.video(attrOf(n, 'src') ?? '', 'iframe', attrOf(n, 'title') && attrOf(n, 'title') !== 'YouTube video player' ? attrOf(n, 'title') : ''));
        return;
      case 'pre': {
        if (attrOf(n, 'data-wp-kept') !== undefined) return;
        sink.flush();
        const lines = textContent(n).replace(/\n$/, '').split('\n');
        lines.forEach((line, i) => {
          if (i) sink.br();
          sink.text(line, marks);
        });
        sink.flush();
        return;
      }
      case 'a': {
        const raw = attrOf(n, 'href');
        const href = raw === undefined ? null : safeHref(raw);
        if (raw !== undefined && !href && raw.trim()) this.drop('unsafe link');
        const inner = href ? [...marks.filter((m) => m.type !== 'link'), { type: 'link', attrs: { href } }] : marks;
        for (const c of kids) this.walk(c, sink, inner);
        return;
      }
      case 'strong': case 'b':
      case 'em': case 'i': {
        const type = tag === 'strong' || tag === 'b' ? 'bold' : 'italic';
        const inner = marks.some((m) => m.type === type) ? marks : [...marks, { type }];
        for (const c of kids) this.walk(c, sink, inner);
        return;
      }
      default:
        break;
    }
    if (Object.prototype.hasOwnProperty.call(DROPPED_TAGS, tag)) {
      this.drop(DROPPED_TAGS[tag]);
      return;
    }
    if (TRANSPARENT_BLOCKS.has(tag)) {
      sink.flush();
      for (const c of kids) this.walk(c, sink, marks);
      sink.flush();
      return;
    }
    // span, u, sup, code, abbr, cite, font …: their text stays, unmarked.
    for (const c of kids) this.walk(c, sink, marks);
  }
}

/** The document without the images that could not be resolved (and without what they leave empty). */
async function resolveImages(nodes: StoryNode[], resolve: (src: string) => Promise<string | null>, missing: string[]): Promise<StoryNode[]> {
  const out: StoryNode[] = [];
  for (const n of nodes) {
    if (n.type === 'image' && n.attrs) {
      const src = pendingSrc.get(n.attrs) ?? '';
      const key = src ? await resolve(src) : null;
      if (!key) {
        if (src && !missing.includes(src)) missing.push(src);
        continue;
      }
      out.push({ ...n, attrs: { ...n.attrs, key } });
    } else if (n.type === 'gallery' && n.attrs) {
      const items: GalleryItem[] = [];
      for (const item of n.attrs.items as GalleryItem[]) {
        const src = pendingSrc.get(item) ?? '';
        const key = src ? await resolve(src) : null;
        if (key) items.push({ ...item, key });
        else if (src && !missing.includes(src)) missing.push(src);
      }
      if (items.length) out.push({ ...n, attrs: { items } });
    } else if (n.content && n.type !== 'paragraph' && n.type !== 'heading') {
      const content = await resolveImages(n.content, resolve, missing);
      if (content.length) out.push({ ...n, content });
    } else out.push(n);
  }
  return out;
}

/** WordPress HTML as a story document, with what was dropped and the images not found. */
export async function htmlToDoc(html: string, opts: HtmlToDocOptions): Promise<HtmlToDocResult> {
  const converter = new Converter(opts);
  const expanded = expandShortcodes(html, converter.dropped);
  const fragment = parseFragment(opts.autop === false ? expanded : wpautop(expanded));
  const blocks = converter.blocks(fragment.childNodes);
  const missing = [...converter.missing];
  const content = await resolveImages(blocks, opts.resolveImage, missing);
  return { doc: { type: 'doc', content: content.length ? content : [{ type: 'paragraph' }] }, dropped: converter.dropped, missingImages: missing };
}

/** The text of a bit of HTML (a title, an excerpt): tags gone, entities decoded, whitespace collapsed. */
export function htmlText(html: string): string {
  return textContent(parseFragment(html)).replace(/\s+/g, ' ').trim();
}
