import { Fragment } from '@tiptap/pm/model';
import { NodeSelection, TextSelection, type EditorState, type Transaction } from '@tiptap/pm/state';
import { insertPoint } from '@tiptap/pm/transform';
import type { StoryNode } from '../../../shared/newsroom';

// Inserting a block (picture, gallery, video, live card, divider): after a selected block
// rather than over it, in place of an empty paragraph, else between the halves of the
// paragraph the caret splits; and with the caret left after it, in the next paragraph (a new
// one at the end of the body), so the writer goes on typing. Without this, a block just
// inserted stays selected, and the next one inserted replaced it.

export function insertBlocksTr(state: EditorState, content: StoryNode | StoryNode[]): Transaction {
  const nodes = Fragment.fromArray((Array.isArray(content) ? content : [content]).map((n) => state.schema.nodeFromJSON(n)));
  const tr = state.tr;
  let from: number;
  let to: number;
  if (state.selection instanceof NodeSelection && state.selection.node.isBlock) from = to = state.selection.to;
  else {
    if (!state.selection.empty) tr.deleteSelection();
    const $at = tr.selection.$from;
    if ($at.parent.isTextblock && $at.parent.content.size === 0 && $at.depth > 0 && $at.node(-1).canReplace($at.index(-1), $at.index(-1) + 1, nodes)) {
      from = $at.before();
      to = $at.after();
    } else {
      const point = insertPoint(tr.doc, $at.pos, nodes.firstChild!.type);
      if (point !== null && point !== undefined) from = to = point;
      else {
        tr.split($at.pos);
        from = to = $at.pos + 1;
      }
    }
  }
  tr.replaceWith(from, to, nodes);
  const $end = tr.doc.resolve(from + nodes.size);
  const after = $end.nodeAfter;
  if (after?.isTextblock) tr.setSelection(TextSelection.create(tr.doc, $end.pos + 1));
  else if (after?.isBlock && NodeSelection.isSelectable(after)) tr.setSelection(NodeSelection.create(tr.doc, $end.pos));
  else if (!after) {
    tr.insert($end.pos, state.schema.nodes.paragraph.create());
    tr.setSelection(TextSelection.create(tr.doc, $end.pos + 1));
  }
  return tr.scrollIntoView();
}

/** Inserts into the view and focuses it. */
export function insertBlocks(view: { state: EditorState; dispatch: (tr: Transaction) => void; focus: () => void }, content: StoryNode | StoryNode[]): boolean {
  view.dispatch(insertBlocksTr(view.state, content));
  view.focus();
  return true;
}
