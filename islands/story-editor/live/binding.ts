import type { Node as PMNode } from '@tiptap/pm/model';
import type { Transaction } from '@tiptap/pm/state';
import type { Awareness } from 'y-protocols/awareness';
import { initProseMirrorDoc, redoCommand, undoCommand, yCursorPlugin, ySyncPlugin, ySyncPluginKey, yUndoPlugin } from 'y-prosemirror';
import type * as Y from 'yjs';
import { storySchema } from '../../../shared/story-pm-schema';
import type { BodyBinding } from '../body/plugins';

// The body bound to the shared document (y-prosemirror): its sync, the others' carets and
// selections in their colour with their name, and an undo that takes back only this writer's
// changes (Mod-z, Mod-Shift-z, Mod-y, and the toolbar's buttons, through body/plugins.ts).

export interface LiveUser {
  name: string;
  /** #rrggbb: y-prosemirror draws only six-digit colours. */
  color: string;
}

function caret(user: LiveUser): HTMLElement {
  const el = document.createElement('span');
  el.className = 'story-caret';
  el.style.borderColor = user.color;
  const label = document.createElement('span');
  label.className = 'story-caret__name';
  label.style.backgroundColor = user.color;
  label.textContent = user.name;
  // The list of who is in the story says the names; a screen reader reading the body should not.
  el.setAttribute('aria-hidden', 'true');
  // Zero-width joiners around the label keep the line from breaking at the caret (y-prosemirror's own way).
  el.append('\u2060', label, '\u2060');
  return el;
}

const isRemote = (tr: Transaction) => (tr.getMeta(ySyncPluginKey) as { isChangeOrigin?: boolean } | undefined)?.isChangeOrigin === true;

/** The view's document as the fragment holds it, and the plugins that keep the two in step. */
export function liveBinding(fragment: Y.XmlFragment, awareness: Awareness): BodyBinding & { doc: PMNode } {
  const filled = fragment.length > 0;
  const { doc, mapping } = initProseMirrorDoc(fragment, storySchema);
  return {
    // An empty fragment: y-prosemirror draws it itself (its mapping then has to be built).
    doc: filled ? doc : storySchema.topNodeType.createAndFill()!,
    plugins: [
      ySyncPlugin(fragment, filled ? { mapping } : {}),
      yCursorPlugin(awareness, { cursorBuilder: caret, selectionBuilder: (user: LiveUser) => ({ class: 'story-caret-selection', style: `background-color: ${user.color}33` }) }),
      yUndoPlugin(),
    ],
    undo: undoCommand,
    redo: redoCommand,
    remote: isRemote,
  };
}
