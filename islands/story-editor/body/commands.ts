import { lift, setBlockType, toggleMark, wrapIn } from '@tiptap/pm/commands';
import { redo as historyRedo, undo as historyUndo } from '@tiptap/pm/history';
import type { Mark, MarkType, NodeType, ResolvedPos } from '@tiptap/pm/model';
import { liftListItem, wrapInList } from '@tiptap/pm/schema-list';
import { Plugin, PluginKey, TextSelection, type Command, type EditorState, type Transaction } from '@tiptap/pm/state';
import { liftTarget } from '@tiptap/pm/transform';
import { safeHref } from '../../../shared/newsroom';
import { storySchema as schema } from '../../../shared/story-pm-schema';

// What the toolbar and the keyboard do to the body, as ProseMirror commands, and what the
// toolbar shows as pressed. Each reads only around the selection, never the whole story.

const { nodes, marks } = schema;

/** The nearest ancestor of the selection's start of one of `types` (and `attrs`), with its depth. */
function ancestor(state: EditorState, types: NodeType[], attrs?: Record<string, unknown>): { depth: number; type: NodeType } | null {
  const { $from } = state.selection;
  for (let d = $from.depth; d > 0; d--) {
    const n = $from.node(d);
    if (types.includes(n.type) && (!attrs || Object.entries(attrs).every(([k, v]) => n.attrs[k] === v))) return { depth: d, type: n.type };
  }
  return null;
}

export const isNodeActive = (state: EditorState, type: NodeType, attrs?: Record<string, unknown>) => ancestor(state, [type], attrs) !== null;

export function isMarkActive(state: EditorState, type: MarkType): boolean {
  const { from, to, empty, $from } = state.selection;
  if (empty) return Boolean(type.isInSet(state.storedMarks ?? $from.marks()));
  return state.doc.rangeHasMark(from, to, type);
}

/** The link mark at the caret or in the selection. */
export function linkAt(state: EditorState): Mark | null {
  const { from, to, empty, $from } = state.selection;
  if (empty) return marks.link.isInSet(state.storedMarks ?? $from.marks()) ?? null;
  let found: Mark | null = null;
  state.doc.nodesBetween(from, to, (n) => {
    found ??= marks.link.isInSet(n.marks) ?? null;
    return !found;
  });
  return found;
}

/** The extent of the mark of `type` the caret touches (the node after it, else the one before). */
function markRange($pos: ResolvedPos, type: MarkType): { from: number; to: number } | null {
  const { parent } = $pos;
  let index = $pos.index();
  let mark = index < parent.childCount ? type.isInSet(parent.child(index).marks) : undefined;
  if (!mark && $pos.textOffset === 0 && index > 0) mark = type.isInSet(parent.child(--index).marks);
  if (!mark) return null;
  let from = $pos.start();
  for (let i = 0; i < index; i++) from += parent.child(i).nodeSize;
  let to = from + parent.child(index).nodeSize;
  for (let i = index; i > 0 && mark.isInSet(parent.child(i - 1).marks); i--) from -= parent.child(i - 1).nodeSize;
  for (let i = index + 1; i < parent.childCount && mark.isInSet(parent.child(i).marks); i++) to += parent.child(i).nodeSize;
  return { from, to };
}

/** The selection, or with a bare caret in a link, that whole link (selected, as TipTap's extendMarkRange did). */
function linkSpan(state: EditorState, tr: Transaction): { from: number; to: number } {
  const { from, to, empty, $from } = state.selection;
  const range = empty ? markRange($from, marks.link) : null;
  if (!range) return { from, to };
  tr.setSelection(TextSelection.create(tr.doc, range.from, range.to));
  return range;
}

export const setLink = (href: string): Command => (state, dispatch) => {
  if (!safeHref(href)) return false;
  if (dispatch) {
    const tr = state.tr;
    const { from, to } = linkSpan(state, tr);
    const link = marks.link.create({ href, title: null });
    if (from === to) {
      // A bare caret outside any link: the address itself, linked.
      tr.replaceSelectionWith(schema.text(href, [link]), false);
    } else tr.removeMark(from, to, marks.link).addMark(from, to, link);
    dispatch(tr.scrollIntoView());
  }
  return true;
};

export const unsetLink: Command = (state, dispatch) => {
  if (dispatch) {
    const tr = state.tr;
    const { from, to } = linkSpan(state, tr);
    if (from === to) tr.removeStoredMark(marks.link);
    else tr.removeMark(from, to, marks.link);
    dispatch(tr);
  }
  return true;
};

/** Lifts the selected blocks out of lists and quotes, so they can become headings. */
function unwrap(tr: Transaction): void {
  for (let i = 0; i < 8; i++) {
    const { $from, $to } = tr.selection;
    const range = $from.blockRange($to);
    const target = range && range.depth > 0 ? liftTarget(range) : null;
    if (!range || target === null || target === undefined) return;
    tr.lift(range, target);
  }
}

export const toggleHeading = (level: 2 | 3): Command => (state, dispatch) => {
  if (isNodeActive(state, nodes.heading, { level })) return setBlockType(nodes.paragraph)(state, dispatch);
  if (setBlockType(nodes.heading, { level })(state, dispatch)) return true;
  // The first paragraph of a list item cannot be a heading: out of the list first.
  const tr = state.tr;
  unwrap(tr);
  const { from, to } = tr.selection;
  tr.setBlockType(from, to, nodes.heading, { level });
  if (!tr.docChanged) return false;
  dispatch?.(tr.scrollIntoView());
  return true;
};

/** Out of a list of this kind, into one, or the list made the other kind. */
export const toggleList = (type: NodeType): Command => (state, dispatch) => {
  const list = ancestor(state, [nodes.bulletList, nodes.orderedList]);
  if (list?.type === type) return liftListItem(nodes.listItem)(state, dispatch);
  if (list) {
    dispatch?.(state.tr.setNodeMarkup(state.selection.$from.before(list.depth), type));
    return true;
  }
  return wrapInList(type)(state, dispatch);
};

export const toggleBlockquote: Command = (state, dispatch) => (isNodeActive(state, nodes.blockquote) ? lift(state, dispatch) : wrapIn(nodes.blockquote)(state, dispatch));

export const toggleBold = toggleMark(marks.bold);
export const toggleItalic = toggleMark(marks.italic);

export const hardBreak: Command = (state, dispatch) => {
  dispatch?.(state.tr.replaceSelectionWith(nodes.hardBreak.create()).scrollIntoView());
  return true;
};

/**
 * The body's undo and redo: ProseMirror's history, or, while the body is live, the shared
 * document's (live/, which undoes only this writer's changes). A plugin carries them so the
 * keys and the toolbar use whichever the view has.
 */
export interface UndoCommands {
  undo: Command;
  redo: Command;
}

const undoCommandsKey = new PluginKey<UndoCommands>('storyUndoCommands');

export const undoCommandsPlugin = (commands: UndoCommands) => new Plugin<UndoCommands>({ key: undoCommandsKey, state: { init: () => commands, apply: (_tr, v) => v } });

export const undoCommandsOf = (state: EditorState): UndoCommands => undoCommandsKey.getState(state) ?? { undo: historyUndo, redo: historyRedo };

export const undo: Command = (state, dispatch, view) => undoCommandsOf(state).undo(state, dispatch, view);
export const redo: Command = (state, dispatch, view) => undoCommandsOf(state).redo(state, dispatch, view);

/** What the toolbar shows: the marks and blocks at the selection, and whether undo and redo can run. */
export interface ToolbarState {
  bold: boolean;
  italic: boolean;
  h2: boolean;
  h3: boolean;
  bullet: boolean;
  ordered: boolean;
  quote: boolean;
  link: boolean;
  href: string | null;
  canUndo: boolean;
  canRedo: boolean;
}

export function toolbarStateOf(state: EditorState): ToolbarState {
  const link = linkAt(state);
  const list = ancestor(state, [nodes.bulletList, nodes.orderedList]);
  return {
    bold: isMarkActive(state, marks.bold),
    italic: isMarkActive(state, marks.italic),
    h2: isNodeActive(state, nodes.heading, { level: 2 }),
    h3: isNodeActive(state, nodes.heading, { level: 3 }),
    bullet: list?.type === nodes.bulletList,
    ordered: list?.type === nodes.orderedList,
    quote: isNodeActive(state, nodes.blockquote),
    link: Boolean(link),
    href: (link?.attrs.href as string | undefined) ?? null,
    // A command asked without a dispatch answers whether it could run.
    canUndo: undo(state),
    canRedo: redo(state),
  };
}
