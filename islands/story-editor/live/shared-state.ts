import * as Y from 'yjs';
import { yXmlFragmentToProsemirrorJSON } from 'y-prosemirror';
import { LIVE_BODY_FIELD, type StoryDoc } from '../../../shared/newsroom';

// The body's shared document as this device keeps it (local-copy.ts `yState`): its whole Yjs
// state, base64 so the page-leaving copy in localStorage can hold it too. Applying a kept
// state merges it with whatever the document holds (Yjs updates commute), never replaces it.

/** The Yjs XmlFragment that holds the body (the server's name for it). */
export const BODY_FRAGMENT = LIVE_BODY_FIELD;

export function toBase64(bytes: Uint8Array): string {
  let s = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

export function fromBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i += 1) out[i] = s.charCodeAt(i);
  return out;
}

export const encodeBody = (doc: Y.Doc): string => toBase64(Y.encodeStateAsUpdate(doc));

/** Merges a kept state into `doc`; false when the text is not a state (a damaged copy). */
export function mergeBody(doc: Y.Doc, kept: string, origin?: unknown): boolean {
  try {
    Y.applyUpdate(doc, fromBase64(kept), origin);
    return true;
  } catch {
    return false;
  }
}

/** The body a kept state holds, as the story's JSON (for saving it without the live link). */
export function bodyOfState(kept: string): StoryDoc | null {
  const doc = new Y.Doc();
  if (!mergeBody(doc, kept)) return null;
  const json = yXmlFragmentToProsemirrorJSON(doc.getXmlFragment(BODY_FRAGMENT)) as StoryDoc;
  doc.destroy();
  return json.content?.length ? json : null;
}
