import type { Node as PMNode } from '@tiptap/pm/model';
import { EditorState } from '@tiptap/pm/state';
import { EditorView, type NodeViewConstructor } from '@tiptap/pm/view';
import type { StoryDoc } from '../../../shared/newsroom';
import { docPlainText } from '../doc-text';
import { toolbarStateOf, type ToolbarState } from './commands';
import { historyBinding, storyPlugins, type BodyBinding, type StoryPasteOptions } from './plugins';
import { storySchema } from '../../../shared/story-pm-schema';

// The body editor: a ProseMirror view on the story schema. A keystroke costs ProseMirror's
// own transaction and one call to `onDocChange` (the store notes the body changed; its JSON
// is read later, store.ts); the toolbar's state is read after the frame that shows the key.

const REPLACED = 'storyBodyReplaced';

/** The story's JSON as a document; a body the schema cannot read keeps its words as paragraphs. */
export function docFrom(json: StoryDoc): PMNode {
  try {
    return storySchema.nodeFromJSON(json);
  } catch {
    const lines = docPlainText(json).split('\n').filter(Boolean);
    return storySchema.node('doc', null, (lines.length ? lines : ['']).map((l) => storySchema.node('paragraph', null, l ? storySchema.text(l) : undefined)));
  }
}

export interface BodyViewOptions {
  doc: StoryDoc;
  nodeViews: Record<string, NodeViewConstructor>;
  paste: StoryPasteOptions;
  /** The writer changed the document (not called for `replaceDoc`). */
  onDocChange: () => void;
  /** Any transaction: the selection or the document may differ. */
  onTransaction: (view: EditorView) => void;
}

export function createBodyView(place: HTMLElement, opts: BodyViewOptions): EditorView {
  const view: EditorView = new EditorView(place, {
    state: EditorState.create({ doc: docFrom(opts.doc), plugins: storyPlugins(opts.paste) }),
    nodeViews: opts.nodeViews,
    attributes: { class: 'story-body-editor', 'aria-label': 'Body', 'aria-multiline': 'true', role: 'textbox', translate: 'no' },
    dispatchTransaction(tr) {
      const { state, transactions } = view.state.applyTransaction(tr);
      view.updateState(state);
      if (!tr.getMeta(REPLACED) && transactions.some((t) => t.docChanged)) opts.onDocChange();
      opts.onTransaction(view);
    },
  });
  return view;
}

/**
 * The view's document and history handed to another keeper: the shared document (live/, `doc`
 * read from it) or back to ProseMirror's history (the live link refused). Not an edit; the
 * caller tells the store the body may differ.
 */
export function rebindBody(view: EditorView, doc: PMNode, paste: StoryPasteOptions, binding: BodyBinding = historyBinding()): void {
  view.updateState(EditorState.create({ doc, plugins: storyPlugins(paste, binding) }));
}

/** The body replaced from outside (a restored revision, a conflict's choice): undoable, not an edit. */
export function replaceDoc(view: EditorView, json: StoryDoc): void {
  const { tr } = view.state;
  view.dispatch(tr.replaceWith(0, tr.doc.content.size, docFrom(json).content).setMeta(REPLACED, true));
}

function shallowEqual<T extends object>(a: T, b: T | null): boolean {
  if (!b) return false;
  return (Object.keys(a) as Array<keyof T>).every((k) => Object.is(a[k], b[k]));
}

/** After the next frame is painted (a key's character shows first), or soon in a hidden tab. */
function afterPaint(cb: () => void): void {
  if (typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && document.visibilityState !== 'hidden') requestAnimationFrame(() => setTimeout(cb, 0));
  else setTimeout(cb, 16);
}

/**
 * The toolbar's pressed and disabled states, read at most once a frame and after it is
 * painted; listeners hear only a change (typing in a paragraph changes nothing).
 */
export class ToolbarFeed {
  private state: ToolbarState | null = null;
  private pending = false;
  private listeners = new Set<() => void>();
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  get = () => this.state;
  schedule(view: EditorView): void {
    if (this.pending) return;
    this.pending = true;
    afterPaint(() => {
      this.pending = false;
      if (!view.isDestroyed) this.read(view.state);
    });
  }
  read(state: EditorState): void {
    const next = toolbarStateOf(state);
    if (shallowEqual(next, this.state)) return;
    this.state = next;
    for (const l of this.listeners) l();
  }
}
