import type { EditorState } from '@tiptap/pm/state';
import { absolutePositionToRelativePosition, relativePositionToAbsolutePosition, ySyncPluginKey } from 'y-prosemirror';
import * as Y from 'yjs';
import { asComment, COMMENT_LIMITS, COMMENTS_FIELD, createComment, mayDelete, mayEdit, orderComments, withResolution, type CommentAnchor, type CommentMember, type LiveComment } from './comment-model';
import { fromBase64, toBase64 } from './shared-state';

// The story's comments (comment-model.ts) in its shared document: the map beside the body, and
// each comment's passage as two Yjs relative positions in the body's fragment, so it follows
// the text as the others type before it, and goes when the passage is deleted.

/** The bound body's binding to its fragment (y-prosemirror's), once the view has one. */
function bindingOf(state: EditorState): { doc: Y.Doc; type: Y.XmlFragment; mapping: Map<Y.AbstractType<unknown>, unknown> } | null {
  const binding = (ySyncPluginKey.getState(state) as { binding?: { doc: Y.Doc; type: Y.XmlFragment; mapping: Map<Y.AbstractType<unknown>, unknown> } | null } | undefined)?.binding;
  return binding ?? null;
}

const encode = (pos: Y.RelativePosition) => toBase64(Y.encodeRelativePosition(pos));

/** The selection as a passage of the shared body; null for an empty selection or an unbound body. */
export function anchorSelection(state: EditorState): CommentAnchor | null {
  const { from, to, empty } = state.selection;
  const quote = state.doc.textBetween(from, to, ' ', ' ').replace(/\s+/g, ' ').trim();
  const binding = bindingOf(state);
  if (empty || !quote || !binding) return null;
  const rel = (pos: number) => absolutePositionToRelativePosition(pos, binding.type, binding.mapping as never);
  return { anchor: { from: encode(rel(from)), to: encode(rel(to)) }, quote: quote.slice(0, COMMENT_LIMITS.quoteMax) };
}

export interface CommentRange {
  id: string;
  from: number;
  to: number;
}

/**
 * Where the open comments' passages are in the bound body now: a passage deleted, or whose
 * positions do not read, has none.
 */
export function commentRanges(state: EditorState, comments: Iterable<LiveComment>): CommentRange[] {
  const binding = bindingOf(state);
  if (!binding) return [];
  const absolute = (text: string): number | null => {
    try {
      return relativePositionToAbsolutePosition(binding.doc, binding.type, Y.decodeRelativePosition(fromBase64(text)), binding.mapping as never);
    } catch {
      return null;
    }
  };
  const ranges: CommentRange[] = [];
  const size = state.doc.content.size;
  for (const c of comments) {
    if (c.resolved) continue;
    const from = absolute(c.anchor.from);
    const to = absolute(c.anchor.to);
    if (from === null || to === null || from >= to || to > size) continue;
    ranges.push({ id: c.id, from, to });
  }
  return ranges;
}

/**
 * The story's comments as React and the body read them: a snapshot that changes only when the
 * map does (mine or another's change), and the changes this member may make.
 */
export class LiveComments {
  private snapshot: LiveComment[] = [];
  private listeners = new Set<() => void>();
  private readonly map: Y.Map<unknown>;

  constructor(doc: Y.Doc, readonly member: CommentMember) {
    this.map = doc.getMap(COMMENTS_FIELD);
    this.read();
    this.map.observe(this.changed);
  }

  private read() {
    const list: LiveComment[] = [];
    this.map.forEach((value, id) => {
      const c = asComment(id, value);
      if (c) list.push(c);
    });
    this.snapshot = orderComments(list);
  }

  private changed = () => {
    this.read();
    for (const l of this.listeners) l();
  };

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  getSnapshot = () => this.snapshot;

  /** The selection as a passage to comment on (null: nothing selected). */
  anchor(state: EditorState): CommentAnchor | null {
    return anchorSelection(state);
  }

  get(id: string): LiveComment | undefined {
    return this.snapshot.find((c) => c.id === id);
  }

  add(text: string, at: CommentAnchor): LiveComment {
    const c = createComment(this.member, text, at);
    this.map.set(c.id, c);
    return c;
  }

  resolve(id: string, resolved: boolean): void {
    const c = this.get(id);
    if (c && c.resolved !== resolved) this.map.set(id, withResolution(c, resolved ? this.member.name : null));
  }

  mayEdit(c: LiveComment): boolean {
    return mayEdit(c, this.member);
  }

  /** The author's new text for their comment (nothing is sent for anyone else's, or no change). */
  edit(id: string, text: string): void {
    const c = this.get(id);
    if (c && this.mayEdit(c) && text.trim() && text !== c.text) this.map.set(id, { ...c, text: text.slice(0, COMMENT_LIMITS.textMax) });
  }

  mayDelete(c: LiveComment): boolean {
    return mayDelete(c, this.member);
  }

  remove(id: string): void {
    const c = this.get(id);
    if (c && this.mayDelete(c)) this.map.delete(id);
  }

  destroy(): void {
    this.map.unobserve(this.changed);
    this.listeners.clear();
  }
}
