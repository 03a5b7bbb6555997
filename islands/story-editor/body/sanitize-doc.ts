import type { StoryDoc, StoryMark, StoryNode } from '../../../shared/newsroom';

// The last guard between the editor's JSON and the schema: attributes a parse rule fills from
// pasted HTML that the schema does not allow (a list numbered "a", a link's class) are reset,
// so a paste can never make the server refuse the body.

const LINK_KEYS = ['href', 'target', 'rel', 'class', 'title'];

function mark(m: StoryMark): StoryMark {
  if (m.type !== 'link' || !m.attrs) return m;
  const attrs: Record<string, unknown> = {};
  for (const k of LINK_KEYS) if (k in m.attrs) attrs[k] = m.attrs[k];
  if (attrs.class !== undefined) attrs.class = null;
  if (attrs.target !== undefined && attrs.target !== '_blank') attrs.target = null;
  if (typeof attrs.title === 'string' && attrs.title.length > 300) attrs.title = attrs.title.slice(0, 300);
  return { ...m, attrs };
}

function node(n: StoryNode): StoryNode {
  const out: StoryNode = { ...n };
  if (n.type === 'orderedList' && n.attrs) {
    const start = n.attrs.start;
    out.attrs = { ...n.attrs, start: Number.isInteger(start) && (start as number) >= 0 ? start : 1, type: null };
  }
  if (n.marks) out.marks = n.marks.map(mark);
  if (n.content) out.content = n.content.map(node);
  return out;
}

export function sanitizeStoryDoc(doc: StoryDoc): StoryDoc {
  return node(doc) as StoryDoc;
}
