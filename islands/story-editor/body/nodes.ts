import { mergeAttributes, Node, type Attribute } from '@tiptap/core';
import type { GalleryItem, LiveCardKind } from '../../../shared/newsroom';

// The newsroom's own blocks (docs/newsroom.md, "The story document"): atoms whose attributes
// are exactly the schema's. Their HTML (data-* attributes) only carries them through copy and
// paste inside the editor; the page's HTML is the server's (story-render.ts). The React node
// views that edit them are added in editor-extensions.ts, so tests can build the schema alone.

/** An attribute kept in a data-* attribute, parsed back with `read`. */
function dataAttr<T>(name: string, fallback: T, read: (v: string) => T = (v) => v as unknown as T, html = name): Partial<Attribute> {
  return {
    default: fallback,
    parseHTML: (el) => {
      const v = el.getAttribute(`data-${html}`);
      return v === null ? fallback : read(v);
    },
    renderHTML: (attrs) => (attrs[name] === null || attrs[name] === undefined ? {} : { [`data-${html}`]: typeof attrs[name] === 'string' ? attrs[name] : JSON.stringify(attrs[name]) }),
  };
}

const intOrNull = (v: string) => (/^\d+$/.test(v) ? Number(v) : null);

export interface StoryImageAttrs {
  key: string;
  alt: string;
  credit: string;
  caption: string;
}

export const StoryImage = Node.create({
  name: 'image',
  group: 'block',
  atom: true,
  draggable: true,
  selectable: true,
  addAttributes() {
    return { key: dataAttr<string | null>('key', null), alt: dataAttr('alt', ''), credit: dataAttr('credit', ''), caption: dataAttr('caption', '') };
  },
  parseHTML() {
    return [{ tag: 'figure[data-story-image]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['figure', mergeAttributes({ 'data-story-image': '' }, HTMLAttributes)];
  },
});

const readItems = (v: string): GalleryItem[] => {
  try {
    const items = JSON.parse(v) as unknown;
    return Array.isArray(items) ? (items as GalleryItem[]) : [];
  } catch {
    return [];
  }
};

export const StoryGallery = Node.create({
  name: 'gallery',
  group: 'block',
  atom: true,
  draggable: true,
  selectable: true,
  addAttributes() {
    return { items: dataAttr<GalleryItem[]>('items', [], readItems) };
  },
  parseHTML() {
    return [{ tag: 'section[data-story-gallery]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['section', mergeAttributes({ 'data-story-gallery': '' }, HTMLAttributes)];
  },
});

export const StoryYoutube = Node.create({
  name: 'youtube',
  group: 'block',
  atom: true,
  draggable: true,
  selectable: true,
  addAttributes() {
    return { videoId: dataAttr('videoId', '', undefined, 'video-id'), start: dataAttr<number | null>('start', null, intOrNull), caption: dataAttr('caption', '') };
  },
  parseHTML() {
    return [{ tag: 'figure[data-story-youtube]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['figure', mergeAttributes({ 'data-story-youtube': '' }, HTMLAttributes)];
  },
});

export const StoryLiveCard = Node.create({
  name: 'liveCard',
  group: 'block',
  atom: true,
  draggable: true,
  selectable: true,
  addAttributes() {
    return { kind: dataAttr<LiveCardKind>('kind', 'place'), id: dataAttr<number | null>('id', null, intOrNull), label: dataAttr('label', '') };
  },
  parseHTML() {
    return [{ tag: 'aside[data-story-live-card]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['aside', mergeAttributes({ 'data-story-live-card': '' }, HTMLAttributes)];
  },
});
