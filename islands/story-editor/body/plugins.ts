import { baseKeymap, setBlockType } from '@tiptap/pm/commands';
import { dropCursor } from '@tiptap/pm/dropcursor';
import { gapCursor } from '@tiptap/pm/gapcursor';
import { history, redo, undo } from '@tiptap/pm/history';
import { InputRule, inputRules, textblockTypeInputRule, undoInputRule, wrappingInputRule } from '@tiptap/pm/inputrules';
import { keymap } from '@tiptap/pm/keymap';
import type { MarkType } from '@tiptap/pm/model';
import { liftListItem, sinkListItem, splitListItem } from '@tiptap/pm/schema-list';
import { Plugin, PluginKey, type EditorState, type Transaction } from '@tiptap/pm/state';
import { hardBreak, toggleBlockquote, toggleBold, toggleHeading, toggleItalic, toggleList, undoCommandsPlugin, type UndoCommands } from './commands';
import { insertBlocksTr } from './insert-block';
import { cleanPastedHtml } from './paste-cleanup';
import { storySchema as schema } from '../../../shared/story-pm-schema';
import { parseYoutubeUrl } from './youtube-url';

// The body editor's behaviour besides the schema: the keys TipTap's extensions had (marks,
// headings, lists, quote, hard break, undo), the Markdown-like shortcuts as one types
// ("## ", "- ", "1. ", "> ", "---", **bold**, *italic*), the drop and gap cursors, a
// paragraph always last, and paste. None of them walks the whole document on a keystroke.

const { nodes, marks } = schema;

export interface StoryPasteOptions {
  /** Pictures were taken out of a paste; `urls` are those that could be fetched. */
  onDroppedImages: (urls: string[], count: number) => void;
}

/** `**bold**` and `*italic*` as typed: the markers go, the words between take the mark. */
function markRule(find: RegExp, type: MarkType): InputRule {
  return new InputRule(find, (state, match, start, end) => {
    const [full, wrapped, inner] = match;
    const markStart = start + full.indexOf(wrapped);
    const innerStart = markStart + wrapped.indexOf(inner);
    const innerEnd = innerStart + inner.length;
    // The last marker character is being typed: it is not in the document yet.
    const tr = state.tr.delete(innerEnd, end).delete(markStart, innerStart);
    return tr.addMark(markStart, markStart + inner.length, type.create()).removeStoredMark(type);
  });
}

/** "---" (or "___ ", "*** ") alone in a paragraph: a divider before it. */
const dividerRule = new InputRule(/^(?:---|—-|___\s|\*\*\*\s)$/, (state, _match, start, end) => {
  const $start = state.doc.resolve(start);
  if ($start.parent.type !== nodes.paragraph || !$start.node(-1).canReplaceWith($start.index(-1), $start.index(-1), nodes.horizontalRule)) return null;
  return state.tr.delete(start, end).insert($start.before(), nodes.horizontalRule.create());
});

const rules = inputRules({
  rules: [
    textblockTypeInputRule(/^(#{2,3})\s$/, nodes.heading, (m) => ({ level: m[1].length })),
    wrappingInputRule(/^\s*([-+*])\s$/, nodes.bulletList),
    wrappingInputRule(/^(\d+)\.\s$/, nodes.orderedList, (m) => ({ start: Number(m[1]) }), (m, n) => n.childCount + (n.attrs.start as number) === Number(m[1])),
    wrappingInputRule(/^\s*>\s$/, nodes.blockquote),
    dividerRule,
    markRule(/(?:^|\s)(\*\*(?!\s+\*\*)((?:[^*]+))\*\*(?!\s+\*\*))$/, marks.bold),
    markRule(/(?:^|\s)(__(?!\s+__)((?:[^_]+))__(?!\s+__))$/, marks.bold),
    markRule(/(?:^|\s)(\*(?!\s+\*)((?:[^*]+))\*(?!\s+\*))$/, marks.italic),
    markRule(/(?:^|\s)(_(?!\s+_)((?:[^_]+))_(?!\s+_))$/, marks.italic),
  ],
});

/**
 * A paragraph is always last, so there is somewhere to type after a block (TipTap's
 * TrailingNode). Not after another writer's change (`remote`): they add their own, and two
 * added at once would both stay.
 */
const trailingParagraph = (remote: (tr: Transaction) => boolean) => new Plugin({
  key: new PluginKey('trailingParagraph'),
  appendTransaction(trs, _old, state: EditorState) {
    if (!trs.some((tr) => tr.docChanged && !remote(tr))) return null;
    if (state.doc.lastChild?.type === nodes.paragraph) return null;
    return state.tr.insert(state.doc.content.size, nodes.paragraph.create());
  },
});

/** Paste: Google Docs and Word HTML cleaned first; a YouTube address on its own becomes a video. */
function pastePlugin(options: StoryPasteOptions): Plugin {
  return new Plugin({
    key: new PluginKey('storyPaste'),
    props: {
      transformPastedHTML(html) {
        const cleaned = cleanPastedHtml(html);
        if (cleaned.droppedImages) options.onDroppedImages(cleaned.foreignImages, cleaned.droppedImages);
        return cleaned.html;
      },
      handlePaste(view, event) {
        const text = event.clipboardData?.getData('text/plain')?.trim() ?? '';
        if (!text || /\s/.test(text)) return false;
        const video = parseYoutubeUrl(text);
        if (!video) return false;
        view.dispatch(insertBlocksTr(view.state, { type: 'youtube', attrs: { ...video, caption: '' } }));
        return true;
      },
    },
  });
}

/**
 * What keeps the body's history: ProseMirror's own (`historyBinding`), or the shared document
 * (live/binding.ts: its sync, cursors and undo plugins, and which transactions came from others).
 */
export interface BodyBinding extends UndoCommands {
  plugins: Plugin[];
  remote: (tr: Transaction) => boolean;
}

export const historyBinding = (): BodyBinding => ({ plugins: [history()], undo, redo, remote: () => false });

export function storyPlugins(paste: StoryPasteOptions, binding: BodyBinding = historyBinding()): Plugin[] {
  return [
    ...binding.plugins,
    undoCommandsPlugin({ undo: binding.undo, redo: binding.redo }),
    rules,
    keymap({
      'Mod-z': binding.undo,
      'Shift-Mod-z': binding.redo,
      'Mod-y': binding.redo,
      'Mod-b': toggleBold,
      'Mod-B': toggleBold,
      'Mod-i': toggleItalic,
      'Mod-I': toggleItalic,
      'Mod-Alt-0': setBlockType(nodes.paragraph),
      'Mod-Alt-2': toggleHeading(2),
      'Mod-Alt-3': toggleHeading(3),
      'Mod-Shift-7': toggleList(nodes.orderedList),
      'Mod-Shift-8': toggleList(nodes.bulletList),
      'Mod-Shift-b': toggleBlockquote,
      'Mod-Enter': hardBreak,
      'Shift-Enter': hardBreak,
      Enter: splitListItem(nodes.listItem),
      Tab: sinkListItem(nodes.listItem),
      'Shift-Tab': liftListItem(nodes.listItem),
      Backspace: undoInputRule,
    }),
    keymap(baseKeymap),
    dropCursor(),
    gapCursor(),
    trailingParagraph(binding.remote),
    pastePlugin(paste),
  ];
}
