import type { Editor, JSONContent } from '@tiptap/core';
import { NodeSelection, TextSelection } from '@tiptap/pm/state';

// Inserting a block (picture, gallery, video, live card) as the divider does: after a selected
// block rather than over it, and with the caret left after it, in the next paragraph (a new
// one at the end of the body), so the writer goes on typing. Without this, a block just
// inserted stays selected, and the next one inserted replaced it.

export function insertBlocks(editor: Editor, content: JSONContent | JSONContent[]): boolean {
  const { selection } = editor.state;
  const chain = editor.chain().focus();
  const inserted = selection instanceof NodeSelection && selection.node.isBlock ? chain.insertContentAt(selection.to, content) : chain.insertContent(content);
  return inserted
    .command(({ tr, dispatch }) => {
      if (!dispatch) return true;
      const { $to } = tr.selection;
      const after = $to.nodeAfter;
      if (after?.isTextblock) tr.setSelection(TextSelection.create(tr.doc, $to.pos + 1));
      else if (after?.isBlock) tr.setSelection(NodeSelection.create(tr.doc, $to.pos));
      else if (!after) {
        const paragraph = tr.doc.type.schema.nodes.paragraph.create();
        const end = $to.end();
        tr.insert(end, paragraph);
        tr.setSelection(TextSelection.create(tr.doc, end + 1));
      }
      tr.scrollIntoView();
      return true;
    })
    .run();
}
