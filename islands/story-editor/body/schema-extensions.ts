import { Mark, mergeAttributes, type Extensions } from '@tiptap/core';
import Blockquote from '@tiptap/extension-blockquote';
import Bold from '@tiptap/extension-bold';
import Document from '@tiptap/extension-document';
import HardBreak from '@tiptap/extension-hard-break';
import Heading from '@tiptap/extension-heading';
import HorizontalRule from '@tiptap/extension-horizontal-rule';
import Italic from '@tiptap/extension-italic';
import { BulletList, ListItem, ListKeymap, OrderedList } from '@tiptap/extension-list';
import Paragraph from '@tiptap/extension-paragraph';
import Text from '@tiptap/extension-text';
import { Dropcursor, Gapcursor, TrailingNode, UndoRedo } from '@tiptap/extensions';
import { safeHref } from '../../../shared/newsroom';
import { StoryGallery, StoryImage, StoryLiveCard, StoryYoutube } from './nodes';

// The editor's schema is STORY_NODES and STORY_MARKS (shared/newsroom.ts), nothing more: the
// extensions one by one (StarterKit would bring code, code blocks, strike and underline along
// even switched off), headings 2 and 3 only, and a link mark of our own whose attributes are the
// schema's. TipTap's Link brings linkifyjs for autolinking (15 KB gzip of the editor's budget);
// a link here is made with the link button or pasted.

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    storyLink: {
      setLink: (attrs: { href: string; title?: string | null }) => ReturnType;
      unsetLink: () => ReturnType;
    };
  }
}

/** The `link` mark: href (a site path, http(s) or mailto) and title; the page sets its own rel. */
export const StoryLink = Mark.create({
  name: 'link',
  priority: 1000,
  inclusive: false,
  keepOnSplit: false,
  addAttributes() {
    return {
      href: { default: null, parseHTML: (el: HTMLElement) => el.getAttribute('href') },
      target: { default: null, parseHTML: () => null, renderHTML: () => ({}) },
      rel: { default: null, parseHTML: () => null, renderHTML: () => ({}) },
      class: { default: null, parseHTML: () => null, renderHTML: () => ({}) },
      title: { default: null, parseHTML: (el: HTMLElement) => el.getAttribute('title')?.slice(0, 300) || null },
    };
  },
  parseHTML() {
    // A link whose address the schema refuses (javascript:, data:) is dropped, its words kept.
    return [{ tag: 'a[href]', getAttrs: (el) => (safeHref((el as HTMLElement).getAttribute('href')) ? null : false) }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['a', mergeAttributes(HTMLAttributes, { rel: 'noopener nofollow' }), 0];
  },
  addCommands() {
    return {
      setLink: (attrs) => ({ chain }) => (safeHref(attrs.href) ? chain().setMark(this.name, { href: attrs.href, title: attrs.title ?? null }).setMeta('preventAutolink', true).run() : false),
      unsetLink: () => ({ chain }) => chain().unsetMark(this.name, { extendEmptyMarkRange: true }).run(),
    };
  },
});

/** The schema's extensions, without the React node views (editor-extensions.ts adds those). */
export function storySchemaExtensions(): Extensions {
  return [
    Document,
    Paragraph,
    Text,
    Heading.configure({ levels: [2, 3] }),
    Bold,
    Italic,
    StoryLink,
    BulletList,
    OrderedList,
    ListItem,
    ListKeymap,
    Blockquote,
    HorizontalRule,
    HardBreak,
    Dropcursor,
    Gapcursor,
    TrailingNode,
    UndoRedo,
    StoryImage,
    StoryGallery,
    StoryYoutube,
    StoryLiveCard,
  ];
}
