import { escapeHtml } from './format/text';
import { imageUrl } from './format/image-url';
import { safeHref, storyDocError, type GalleryItem, type LiveCardKind, type StoryDoc, type StoryMark, type StoryNode } from './newsroom';

// A story's body (the editor's JSON, shared/newsroom.ts) as HTML, through the schema only: every
// node and mark the schema names has one way to be written here, every text and attribute is
// escaped, and anything else (which validation refuses before a save) is dropped, so no stored
// HTML and no string from a document is ever printed as markup. The HTML is made once per
// revision and kept; live cards are left as markers that the page fills from the current record
// at read time (live-card-queries.ts), so a place that closes says so in every story naming it.
// In shared/ (moved from server/apps/articles, which re-exports it) because a place's review
// (issue 39) is rendered by the listings app, which the articles app sits above.

export interface RenderedStory {
  html: string;
  /** The words, blocks separated by blank lines: search, excerpts, JSON-LD. */
  text: string;
  /** The live cards the body names, in order. */
  cards: Array<{ kind: LiveCardKind; id: number }>;
}

export const LIVE_CARD_MARKER = /<!--live-card:(place|event|bestOf):(\d+)-->/g;

function attr(v: unknown): string {
  return escapeHtml(String(v ?? ''));
}

function isSitePath(href: string): boolean {
  return href.startsWith('/') || href.startsWith('#');
}

function marked(text: string, marks: StoryMark[] | undefined): string {
  let html = escapeHtml(text);
  // Links outermost, so a bold word in a link stays inside one <a>.
  const ordered = [...(marks ?? [])].sort((a, b) => (a.type === 'link' ? 1 : 0) - (b.type === 'link' ? 1 : 0));
  for (const m of ordered) {
    if (m.type === 'bold') html = `<strong>${html}</strong>`;
    else if (m.type === 'italic') html = `<em>${html}</em>`;
    else if (m.type === 'link') {
      const href = safeHref(m.attrs?.href);
      if (!href) continue;
      const rel = isSitePath(href) ? '' : ' rel="noopener nofollow"';
      html = `<a href="${attr(href)}"${rel}>${html}</a>`;
    }
  }
  return html;
}

function inline(nodes: StoryNode[] | undefined, text: string[]): string {
  let html = '';
  for (const n of nodes ?? []) {
    if (n.type === 'text' && typeof n.text === 'string') {
      html += marked(n.text, n.marks);
      text.push(n.text);
    } else if (n.type === 'hardBreak') {
      html += '<br>';
      text.push('\n');
    }
  }
  return html;
}

function figureCaption(caption: string, credit: string): string {
  if (!caption && !credit) return '';
  const c = caption ? escapeHtml(caption) : '';
  const cr = credit ? `<span class="story-credit">${escapeHtml(credit)}</span>` : '';
  return `<figcaption>${c}${c && cr ? ' ' : ''}${cr}</figcaption>`;
}

function imageFigure(item: GalleryItem, cls: string, loading: 'lazy' | 'eager' = 'lazy'): string {
  const src = imageUrl(item.key, 'photoViewer');
  return `<figure class="${cls}"><img src="${attr(src)}" alt="${attr(item.alt)}" width="1080" height="720" loading="${loading}" decoding="async">${figureCaption(item.caption, item.credit)}</figure>`;
}

function block(n: StoryNode, out: { text: string[]; blocks: string[]; cards: RenderedStory['cards'] }): string {
  const a = n.attrs ?? {};
  switch (n.type) {
    case 'paragraph': {
      const words: string[] = [];
      const html = inline(n.content, words);
      if (!html) return '';
      out.blocks.push(words.join(''));
      return `<p>${html}</p>`;
    }
    case 'heading': {
      const level = a.level === 3 ? 3 : 2;
      const words: string[] = [];
      const html = inline(n.content, words);
      if (!html) return '';
      out.blocks.push(words.join(''));
      return `<h${level}>${html}</h${level}>`;
    }
    case 'bulletList':
    case 'orderedList': {
      const items = (n.content ?? []).map((li) => `<li>${(li.content ?? []).map((c) => block(c, out)).join('')}</li>`).join('');
      if (n.type === 'bulletList') return `<ul>${items}</ul>`;
      const start = Number.isInteger(a.start) && (a.start as number) > 1 ? ` start="${a.start as number}"` : '';
      return `<ol${start}>${items}</ol>`;
    }
    case 'blockquote':
      return `<blockquote>${(n.content ?? []).map((c) => block(c, out)).join('')}</blockquote>`;
    case 'horizontalRule':
      return '<hr>';
    case 'image': {
      const item = { key: String(a.key ?? ''), alt: String(a.alt ?? ''), credit: String(a.credit ?? ''), caption: String(a.caption ?? '') };
      if (!item.key) return '';
      if (item.caption) out.blocks.push(item.caption);
      return imageFigure(item, 'story-image');
    }
    case 'gallery': {
      const items = (Array.isArray(a.items) ? (a.items as GalleryItem[]) : []).filter((i) => i && typeof i.key === 'string');
      if (!items.length) return '';
      for (const i of items) if (i.caption) out.blocks.push(i.caption);
      // A slideshow that scrolls sideways without JavaScript, one picture a slide.
      const slides = items.map((i, k) => `<li class="story-gallery__slide" aria-label="${k + 1} of ${items.length}">${imageFigure(i, 'story-gallery__figure')}</li>`).join('');
      return `<section class="story-gallery" aria-label="Gallery, ${items.length} ${items.length === 1 ? 'picture' : 'pictures'}"><ul class="story-gallery__slides" tabindex="0">${slides}</ul></section>`;
    }
    case 'youtube': {
      const id = String(a.videoId ?? '');
      if (!/^[A-Za-z0-9_-]{11}$/.test(id)) return '';
      const start = Number.isInteger(a.start) && (a.start as number) > 0 ? `?start=${a.start as number}` : '';
      const caption = String(a.caption ?? '');
      if (caption) out.blocks.push(caption);
      return `<figure class="story-video"><div class="video-frame"><iframe src="https://www.youtube-nocookie.com/embed/${id}${start}" title="${attr(caption || 'Video')}" width="960" height="540" loading="lazy" allow="accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe></div>${caption ? `<figcaption>${escapeHtml(caption)}</figcaption>` : ''}</figure>`;
    }
    case 'liveCard': {
      const kind = a.kind as LiveCardKind;
      const id = Number(a.id);
      if (!['place', 'event', 'bestOf'].includes(kind) || !Number.isInteger(id) || id <= 0) return '';
      out.cards.push({ kind, id });
      if (typeof a.label === 'string' && a.label) out.blocks.push(a.label);
      return `<!--live-card:${kind}:${id}-->`;
    }
    default:
      return '';
  }
}

/** A document (validated) as HTML with live-card markers, its plain text and its cards. */
export function renderStoryDoc(doc: StoryDoc): RenderedStory {
  const out = { text: [] as string[], blocks: [] as string[], cards: [] as RenderedStory['cards'] };
  const html = (doc.content ?? []).map((n) => block(n, out)).join('\n');
  return { html, text: out.blocks.filter(Boolean).join('\n\n'), cards: out.cards };
}

/** Validates, then renders; throws the validator's sentence for a document outside the schema. */
export function renderValidStoryDoc(doc: unknown): RenderedStory {
  const error = storyDocError(doc);
  if (error) throw new Error(error);
  return renderStoryDoc(doc as StoryDoc);
}

/** The live cards a rendered body names (read from its markers), for the page to load. */
export function liveCardsIn(html: string): Array<{ kind: LiveCardKind; id: number }> {
  return [...html.matchAll(LIVE_CARD_MARKER)].map((m) => ({ kind: m[1] as LiveCardKind, id: Number(m[2]) }));
}
