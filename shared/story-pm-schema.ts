import { Schema, type AttributeSpec, type DOMOutputSpec, type MarkSpec, type NodeSpec, type Node as PMNode } from '@tiptap/pm/model';
import { safeHref, type GalleryItem } from './newsroom';

// The story body's ProseMirror schema (the editor's, and the server's for the shared document of live co-editing): STORY_NODES and STORY_MARKS (shared/newsroom.ts), nothing
// more, with TipTap's names and attributes so the stored JSON is the same as before the
// editor dropped TipTap (its core and React bindings were a fifth of the island's size).
// Headings 2 and 3 only. The newsroom's own blocks (image, gallery, youtube, liveCard) are
// atoms whose attributes travel in data-* attributes, only for copy and paste inside the
// editor: the page's HTML is the server's (story-render.ts).

/** An attribute kept in data-NAME, parsed back with `read`. */
/** What the parse rules read of a pasted element (shared/ has no DOM types: the server builds this schema too). */
interface PastedElement {
  getAttribute(name: string): string | null;
  style: { fontWeight: string; fontStyle: string };
}

function dataAttrs(el: PastedElement, spec: Record<string, [fallback: unknown, read?: (v: string) => unknown, html?: string]>): Record<string, unknown> {
  const attrs: Record<string, unknown> = {};
  for (const [name, [fallback, read, html]] of Object.entries(spec)) {
    const v = el.getAttribute(`data-${html ?? name}`);
    attrs[name] = v === null ? fallback : read ? read(v) : v;
  }
  return attrs;
}

function toData(node: PMNode, names: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(node.attrs)) if (v !== null && v !== undefined) out[`data-${names[k] ?? k}`] = typeof v === 'string' ? v : JSON.stringify(v);
  return out;
}

const intOrNull = (v: string) => (/^\d+$/.test(v) ? Number(v) : null);
const readItems = (v: string): GalleryItem[] => {
  try {
    const items = JSON.parse(v) as unknown;
    return Array.isArray(items) ? (items as GalleryItem[]) : [];
  } catch {
    return [];
  }
};

const defaults = (o: Record<string, unknown>): Record<string, AttributeSpec> => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, { default: v }]));

/** A newsroom block: an atom, dragged and selected whole. */
function atom(tag: string, marker: string, attrs: Record<string, [unknown, ((v: string) => unknown)?, string?]>, names?: Record<string, string>): NodeSpec {
  return {
    group: 'block',
    atom: true,
    draggable: true,
    selectable: true,
    attrs: defaults(Object.fromEntries(Object.entries(attrs).map(([k, [fallback]]) => [k, fallback]))),
    parseDOM: [{ tag: `${tag}[data-${marker}]`, getAttrs: (el) => dataAttrs(el as unknown as PastedElement, attrs) }],
    toDOM: (node): DOMOutputSpec => [tag, { [`data-${marker}`]: '', ...toData(node, names) }],
  };
}

// Paragraph first: the default block.
const nodes: Record<string, NodeSpec> = {
  paragraph: { content: 'inline*', group: 'block', parseDOM: [{ tag: 'p' }], toDOM: () => ['p', 0] },
  doc: { content: 'block+' },
  text: { group: 'inline' },
  heading: {
    content: 'inline*',
    group: 'block',
    defining: true,
    attrs: { level: { default: 2 } },
    parseDOM: [2, 3].map((level) => ({ tag: `h${level}`, attrs: { level } })),
    toDOM: (n) => [n.attrs.level === 3 ? 'h3' : 'h2', 0],
  },
  bulletList: { content: 'listItem+', group: 'block', parseDOM: [{ tag: 'ul' }], toDOM: () => ['ul', 0] },
  orderedList: {
    content: 'listItem+',
    group: 'block',
    // `type` is TipTap's; the schema allows only none (sanitize-doc.ts resets it).
    attrs: defaults({ start: 1, type: null }),
    parseDOM: [{ tag: 'ol', getAttrs: (el) => ({ start: Number.parseInt((el as unknown as PastedElement).getAttribute('start') ?? '', 10) || 1, type: null }) }],
    toDOM: (n) => ['ol', { start: n.attrs.start === 1 ? null : n.attrs.start }, 0],
  },
  listItem: { content: 'paragraph block*', defining: true, parseDOM: [{ tag: 'li' }], toDOM: () => ['li', 0] },
  blockquote: { content: 'block+', group: 'block', defining: true, parseDOM: [{ tag: 'blockquote' }], toDOM: () => ['blockquote', 0] },
  horizontalRule: { group: 'block', parseDOM: [{ tag: 'hr' }], toDOM: () => ['hr'] },
  hardBreak: { inline: true, group: 'inline', selectable: false, linebreakReplacement: true, parseDOM: [{ tag: 'br' }], toDOM: () => ['br'] },
  image: atom('figure', 'story-image', { key: [null], alt: [''], credit: [''], caption: [''] }),
  gallery: atom('section', 'story-gallery', { items: [[], readItems] }),
  youtube: atom('figure', 'story-youtube', { videoId: ['', undefined, 'video-id'], start: [null, intOrNull], caption: [''] }, { videoId: 'video-id' }),
  liveCard: atom('aside', 'story-live-card', { kind: ['place'], id: [null, intOrNull], label: [''] }),
};

// Link first, as TipTap ranked it: a bold link's marks are [link, bold] in the JSON.
const marks: Record<string, MarkSpec> = {
  link: {
    inclusive: false,
    attrs: defaults({ href: null, target: null, rel: null, class: null, title: null }),
    // A link whose address the schema refuses (javascript:, data:) is dropped, its words kept.
    parseDOM: [
      {
        tag: 'a[href]',
        getAttrs: (el) => {
          const a = el as unknown as PastedElement;
          const href = a.getAttribute('href');
          return safeHref(href) ? { href, title: a.getAttribute('title')?.slice(0, 300) || null } : false;
        },
      },
    ],
    toDOM: (m) => ['a', { href: m.attrs.href, title: m.attrs.title, rel: 'noopener nofollow' }, 0],
  },
  // Google Docs wraps a whole paste in <b style="font-weight:normal">: not bold.
  bold: {
    parseDOM: [
      { tag: 'strong' },
      { tag: 'b', getAttrs: (el) => (el as unknown as PastedElement).style.fontWeight !== 'normal' && null },
      { style: 'font-weight=400', clearMark: (m) => m.type.name === 'bold' },
      { style: 'font-weight', getAttrs: (v) => /^(bold(er)?|[5-9]\d{2,})$/.test(v as string) && null },
    ],
    toDOM: () => ['strong', 0],
  },
  italic: {
    parseDOM: [
      { tag: 'em' },
      { tag: 'i', getAttrs: (el) => (el as unknown as PastedElement).style.fontStyle !== 'normal' && null },
      { style: 'font-style=normal', clearMark: (m) => m.type.name === 'italic' },
      { style: 'font-style=italic' },
    ],
    toDOM: () => ['em', 0],
  },
};

export const storySchema = new Schema({ nodes, marks });
