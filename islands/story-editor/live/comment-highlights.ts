import { Plugin, PluginKey, type EditorState, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { ySyncPluginKey } from 'y-prosemirror';
import { commentRanges, type LiveComments } from './comments';

// The open comments' passages highlighted in the live body. Their places are read from the
// relative positions when the shared document changes under the view (another's typing, a
// comment added, resolved or deleted); this writer's own typing only maps them, since the
// shared body catches up with the view after the transaction (y-prosemirror's cursors do
// the same). A click on a highlight opens its comment; Mod-Alt-m asks for a new one.

export const commentHighlightsKey = new PluginKey<DecorationSet>('storyComments');

export interface CommentHighlightHandlers {
  /** A highlight was clicked: show its comment. */
  open(id: string): void;
  /** Mod-Alt-m: comment on the selection. */
  ask(): void;
}

function highlights(state: EditorState, comments: LiveComments): DecorationSet {
  const decorations = commentRanges(state, comments.getSnapshot()).map(({ id, from, to }) => {
    const c = comments.get(id)!;
    return Decoration.inline(from, to, { nodeName: 'mark', class: 'story-comment-mark', title: `Comment by ${c.authorName}: ${c.text}`, 'data-comment-id': id }, { id });
  });
  return DecorationSet.create(state.doc, decorations);
}

const reread = (tr: Transaction) => tr.getMeta(commentHighlightsKey) === true || (tr.getMeta(ySyncPluginKey) as { isChangeOrigin?: boolean } | undefined)?.isChangeOrigin === true;

const isModAltM = (e: KeyboardEvent) => (e.ctrlKey || e.metaKey) && e.altKey && !e.shiftKey && (e.code === 'KeyM' || e.key.toLowerCase() === 'm');

export function commentHighlights(comments: LiveComments, handlers: CommentHighlightHandlers): Plugin<DecorationSet> {
  return new Plugin<DecorationSet>({
    key: commentHighlightsKey,
    state: {
      init: (_config, state) => highlights(state, comments),
      apply: (tr, old, _oldState, state) => (reread(tr) ? highlights(state, comments) : old.map(tr.mapping, tr.doc)),
    },
    props: {
      decorations: (state) => commentHighlightsKey.getState(state),
      handleClick(view, pos) {
        const found = commentHighlightsKey.getState(view.state)?.find(pos, pos) ?? [];
        // The innermost (shortest) passage when they overlap.
        const hit = found.filter((d) => d.from < pos || d.to > pos).sort((a, b) => a.to - a.from - (b.to - b.from))[0];
        if (!hit) return false;
        handlers.open((hit.spec as { id: string }).id);
        return false;
      },
      handleKeyDown(_view, e) {
        if (!isModAltM(e)) return false;
        handlers.ask();
        return true;
      },
    },
    view(view) {
      // The map's changes, and the body's first drawing (the binding's positions exist from then).
      const redraw = () => {
        if (!view.isDestroyed) view.dispatch(view.state.tr.setMeta(commentHighlightsKey, true).setMeta('addToHistory', false));
      };
      const stop = comments.subscribe(redraw);
      queueMicrotask(redraw);
      return { destroy: stop };
    },
  });
}
