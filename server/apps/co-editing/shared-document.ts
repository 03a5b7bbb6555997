import * as Y from 'yjs';
import { prosemirrorToYXmlFragment, yXmlFragmentToProsemirrorJSON } from 'y-prosemirror';
import type { Node as PMNode } from '@tiptap/pm/model';
import { storySchema } from '../../../shared/story-pm-schema';
import { LIVE_BODY_FIELD, storyDocError, type StoryDoc } from '../../../shared/newsroom';

// A story's body as a Yjs document (y-prosemirror's mapping of the ProseMirror schema the editor
// uses), and the rules a shared document must keep: only the story schema's nodes, marks and
// attributes, in the places the schema allows, and nothing beside the body. The server checks
// every update a client sends against them before applying it (live-server.ts).

/** The body a story's JSON makes in the story schema; a body with no block gets an empty paragraph, as the editor shows it. */
function bodyNode(doc: StoryDoc): PMNode {
  const node = storySchema.nodeFromJSON(doc);
  return node.childCount ? node : storySchema.topNodeType.createAndFill()!;
}

/** A new shared document holding the story's body. */
export function sharedDocumentFrom(doc: StoryDoc): Y.Doc {
  const ydoc = new Y.Doc();
  prosemirrorToYXmlFragment(bodyNode(doc), ydoc.getXmlFragment(LIVE_BODY_FIELD));
  return ydoc;
}

/**
 * The body replaced in place (a restored revision, a save through the API): y-prosemirror
 * changes only the blocks that differ, in one transaction with `origin`, so editors see it as
 * any other change and their carets in untouched paragraphs stay.
 */
export function replaceBody(ydoc: Y.Doc, doc: StoryDoc, origin: unknown): void {
  ydoc.transact(() => void prosemirrorToYXmlFragment(bodyNode(doc), ydoc.getXmlFragment(LIVE_BODY_FIELD)), origin);
}

type RawNode = { type?: unknown; attrs?: Record<string, unknown>; content?: RawNode[]; marks?: Array<{ type?: unknown; attrs?: Record<string, unknown> }>; text?: unknown };

/** The first node, mark or attribute outside the schema, named with where it is; null when none. */
function outsideSchema(node: RawNode, at: string): string | null {
  const type = typeof node.type === 'string' ? storySchema.nodes[node.type] : undefined;
  if (!type) return `Unknown node “${String(node.type)}” at ${at}.`;
  for (const key of Object.keys(node.attrs ?? {})) if (!(key in type.spec.attrs!)) return `Unknown attribute “${key}” of ${type.name} at ${at}.`;
  for (const [i, mark] of (node.marks ?? []).entries()) {
    const markType = typeof mark.type === 'string' ? storySchema.marks[mark.type] : undefined;
    if (!markType) return `Unknown mark “${String(mark.type)}” at ${at}.marks[${i}].`;
    for (const key of Object.keys(mark.attrs ?? {})) if (!(key in (markType.spec.attrs ?? {}))) return `Unknown attribute “${key}” of ${markType.name} at ${at}.marks[${i}].`;
  }
  for (const [i, child] of (node.content ?? []).entries()) {
    const found = outsideSchema(child, `${at}.content[${i}]`);
    if (found) return found;
  }
  return null;
}

/**
 * The body of a shared document as the story's JSON, or why it is not a story body: a node,
 * mark or attribute the schema does not have, content where the schema allows none, or what
 * the newsroom's own check refuses (storyDocError: the same rules as a save through the API).
 */
export function storyBodyOf(ydoc: Y.Doc): { doc: StoryDoc } | { error: string } {
  for (const name of ydoc.share.keys()) if (name !== LIVE_BODY_FIELD) return { error: `Unknown part “${name}” of the document.` };
  const raw = { type: 'doc', ...yXmlFragmentToProsemirrorJSON(ydoc.getXmlFragment(LIVE_BODY_FIELD)) } as RawNode;
  const outside = outsideSchema(raw, 'body');
  if (outside) return { error: outside };
  let node: PMNode;
  try {
    node = storySchema.nodeFromJSON(raw);
    node.check();
  } catch (err) {
    return { error: `The body breaks the story schema: ${(err as Error).message}` };
  }
  const doc = node.toJSON() as StoryDoc;
  const error = storyDocError(doc);
  return error ? { error } : { doc };
}

/**
 * Why an update from a client may not be applied (it would make the document something other
 * than a story body), or null. It is tried on a copy: nothing of a refused update reaches the
 * shared document.
 */
export function refusedUpdate(ydoc: Y.Doc, update: Uint8Array): string | null {
  const probe = new Y.Doc();
  try {
    Y.applyUpdate(probe, Y.encodeStateAsUpdate(ydoc));
    Y.applyUpdate(probe, update);
  } catch {
    return 'The update could not be read.';
  }
  const body = storyBodyOf(probe);
  probe.destroy();
  return 'error' in body ? body.error : null;
}

/** One state of a stored state and the updates appended since. */
export function mergedState(state: Uint8Array, updates: Uint8Array[]): Uint8Array {
  return Y.mergeUpdates([state, ...updates]);
}
