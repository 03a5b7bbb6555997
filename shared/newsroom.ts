// The newsroom's rules that the server and the story editor island share (issue 37): roles and
// what each may do, statuses, autosave and revision timings, the preview link's life, the
// checks' limits, and the story document's schema with its validator. The editor (TipTap) and
// the server validate a body against the same schema, so nothing the server would refuse is
// ever kept by the editor as saved, and nothing outside the schema reaches a page.

export const NEWSROOM_ROLES = ['contributor', 'writer', 'editor', 'administrator'] as const;
export type NewsroomRole = (typeof NEWSROOM_ROLES)[number];

export const ROLE_LABELS: Record<NewsroomRole, string> = {
  contributor: 'Contributor',
  writer: 'Writer',
  editor: 'Editor',
  administrator: 'Administrator',
};

const RANK: Record<NewsroomRole, number> = { contributor: 1, writer: 2, editor: 3, administrator: 4 };

/** Whether `role` is at least `min` (an administrator is an editor, an editor a writer …). */
export function roleAtLeast(role: NewsroomRole | null | undefined, min: NewsroomRole): boolean {
  return Boolean(role) && RANK[role as NewsroomRole] >= RANK[min];
}

export function isNewsroomRole(v: unknown): v is NewsroomRole {
  return typeof v === 'string' && (NEWSROOM_ROLES as readonly string[]).includes(v);
}

/** What a role may do to a story, given whether they wrote it. */
export function storyPermissions(role: NewsroomRole | null | undefined, isAuthor: boolean) {
  const any = roleAtLeast(role, 'editor');
  const own = isAuthor || any;
  return {
    edit: Boolean(role) && own,
    submitForReview: Boolean(role) && own,
    publish: own && roleAtLeast(role, 'writer'),
    /** Publish although a blocking check fails, giving a reason. */
    override: any,
    delete: own,
  };
}

export const STORY_STATUSES = ['draft', 'review', 'scheduled', 'published', 'unpublished'] as const;
export type StoryStatus = (typeof STORY_STATUSES)[number];
export const STORY_STATUS_LABELS: Record<StoryStatus, string> = {
  draft: 'Draft',
  review: 'In review',
  scheduled: 'Scheduled',
  published: 'Published',
  unpublished: 'Unpublished',
};

export const NEWSROOM_TIMINGS = {
  /** Autosave this long after the last keystroke … */
  autosaveDebounceMs: 3_000,
  /** … and at least this often while typing goes on. */
  autosaveMaxMs: 60_000,
  /** A background revision at most this often while a story is edited. */
  revisionIntervalMs: 10 * 60_000,
  /** The editor says it is open every so often; others see it for twice as long. */
  presenceHeartbeatMs: 20_000,
  presenceTtlMs: 60_000,
  /** A preview link lives this long unless revoked. */
  previewDays: 7,
  /** A scheduled story published more than this after its time is marked late. */
  lateAfterMs: 60_000,
} as const;

/**
 * Live co-editing (issue 42, docs/newsroom.md): the body is a shared Yjs document served over a
 * websocket by the server processes (Hocuspocus's protocol), one document per story.
 */
export const LIVE_EDITING = {
  /** The websocket's path, on the page's own host. */
  path: '/api/v2/staff/live/',
  /** The Yjs XmlFragment holding the body (y-prosemirror's mapping of the story schema). */
  bodyField: 'default',
  /** The Yjs map of comments on passages (LiveComment by id): never part of the body, never published. */
  commentsField: 'comments',
  /** After the last change, the server writes the body into the story this long after … */
  storeDebounceMs: 2_000,
  /** … and at least this often while typing goes on. */
  storeMaxMs: 10_000,
  /** A message larger than this closes the socket (a 5,000-word body is about 100 KB). */
  maxMessageBytes: 4 * 1024 * 1024,
  /** Close codes: the message broke the story schema; the member may not edit the story. */
  closeOutsideSchema: 4400,
  closeForbidden: 4403,
} as const;

export const LIVE_BODY_FIELD = LIVE_EDITING.bodyField;

/**
 * An editor's note on a passage of the body, kept in the shared document beside it. The passage
 * is two Yjs relative positions in the body (Y.encodeRelativePosition, base64), so it follows
 * the text as others edit around it.
 */
export interface LiveComment {
  id: string;
  authorId: number;
  authorName: string;
  text: string;
  createdAt: string;
  resolved: boolean;
  resolvedBy: string | null;
  anchor: { from: string; to: string };
  /** The passage's words when the comment was made (shown when the passage is gone). */
  quote: string;
}

export const LIVE_COMMENT_LIMITS = { textMax: 2000, quoteMax: 300, anchorMax: 200 } as const;

/** What is wrong with a comment's value, or null when it is a LiveComment. */
export function liveCommentError(value: unknown, key: string): string | null {
  const c = value as Partial<LiveComment> | null;
  if (!c || typeof c !== 'object' || Array.isArray(c)) return 'A comment is an object.';
  const keys: Array<keyof LiveComment> = ['id', 'authorId', 'authorName', 'text', 'createdAt', 'resolved', 'resolvedBy', 'anchor', 'quote'];
  for (const k of Object.keys(c)) if (!keys.includes(k as keyof LiveComment)) return `Unknown comment field “${k}”.`;
  if (c.id !== key || !/^[A-Za-z0-9_-]{10,40}$/.test(key)) return 'A comment’s id is its key: 10 to 40 letters, digits, - or _.';
  if (!Number.isInteger(c.authorId) || typeof c.authorName !== 'string') return 'A comment names its author.';
  if (typeof c.text !== 'string' || !c.text.trim() || c.text.length > LIVE_COMMENT_LIMITS.textMax) return `A comment’s text is 1 to ${LIVE_COMMENT_LIMITS.textMax} characters.`;
  if (typeof c.createdAt !== 'string' || Number.isNaN(Date.parse(c.createdAt))) return 'A comment has its time.';
  if (typeof c.resolved !== 'boolean' || !(c.resolvedBy === null || typeof c.resolvedBy === 'string')) return 'A comment is resolved or not.';
  const a = c.anchor as { from?: unknown; to?: unknown } | undefined;
  const b64 = (v: unknown) => typeof v === 'string' && v.length <= LIVE_COMMENT_LIMITS.anchorMax && /^[A-Za-z0-9+/]*={0,2}$/.test(v);
  if (!a || typeof a !== 'object' || !b64(a.from) || !b64(a.to) || Object.keys(a).length !== 2) return 'A comment’s passage is two relative positions.';
  if (typeof c.quote !== 'string' || c.quote.length > LIVE_COMMENT_LIMITS.quoteMax) return `A comment’s quote is at most ${LIVE_COMMENT_LIMITS.quoteMax} characters.`;
  return null;
}

/** A story's shared document's name in the protocol. */
export const liveDocumentName = (storyId: number): string => `story:${storyId}`;

/** The story a document name names, or null. */
export function storyIdOfLiveDocument(name: string): number | null {
  const m = /^story:([1-9]\d{0,9})$/.exec(name);
  return m ? Number(m[1]) : null;
}

export const STORY_LIMITS = {
  titleMax: 255,
  slugMax: 200,
  excerptMax: 600,
  seoTitleMax: 70,
  seoDescriptionMax: 160,
  creditMax: 255,
  altMax: 400,
  captionMax: 1000,
  galleryMax: 40,
  /** Revisions kept per story (at least 100, issue 37); the oldest beyond go. */
  revisionsKept: 250,
  /** A body's JSON, as sent: a 5,000-word story is about 60 KB. */
  docBytesMax: 2_000_000,
  nodesMax: 20_000,
} as const;

/** The fields of a story an editor changes; a save names the ones it changes. */
export const STORY_FIELDS = [
  'name', 'slug', 'excerpt', 'type_id', 'doc', 'image_key', 'image_alt', 'image_credit',
  'seo_title', 'seo_description', 'canonical_url', 'social_image_key', 'is_sponsored', 'sponsor_name', 'author_name',
] as const;
export type StoryField = (typeof STORY_FIELDS)[number];

export const STORY_FIELD_LABELS: Record<StoryField, string> = {
  name: 'Headline',
  slug: 'Slug',
  excerpt: 'Excerpt',
  type_id: 'Type',
  doc: 'Body',
  image_key: 'Image',
  image_alt: 'Image alt text',
  image_credit: 'Image credit',
  seo_title: 'SEO title',
  seo_description: 'SEO description',
  canonical_url: 'Canonical URL',
  social_image_key: 'Social image',
  is_sponsored: 'Sponsored',
  sponsor_name: 'Sponsor',
  author_name: 'Byline',
};

// ## The story document
// ProseMirror/TipTap JSON: { type: 'doc', content: [...] }. Node and mark names are TipTap's
// where TipTap has one; image, gallery, youtube and liveCard are the newsroom's own.

export type LiveCardKind = 'place' | 'event' | 'bestOf';
export const LIVE_CARD_KINDS: readonly LiveCardKind[] = ['place', 'event', 'bestOf'];

export interface StoryMark {
  type: string;
  attrs?: Record<string, unknown>;
}
export interface StoryNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: StoryNode[];
  marks?: StoryMark[];
  text?: string;
}
export interface StoryDoc extends StoryNode {
  type: 'doc';
  content: StoryNode[];
}

export interface GalleryItem {
  key: string;
  alt: string;
  credit: string;
  caption: string;
}

/** A media key from the upload pipeline: a relative path under the media store. */
export const MEDIA_KEY_RE = /^[a-z0-9][a-z0-9/_.-]{0,300}$/i;
export const YOUTUBE_ID_RE = /^[A-Za-z0-9_-]{11}$/;

type AttrCheck = (v: unknown) => string | null;
const str = (max: number, required = false): AttrCheck => (v) => {
  if (v === undefined || v === null) return required ? 'is required' : null;
  if (typeof v !== 'string') return 'must be text';
  if (v.length > max) return `must be at most ${max} characters`;
  return null;
};
const oneOf = (...allowed: unknown[]): AttrCheck => (v) => (allowed.includes(v) ? null : `must be one of ${allowed.filter((a) => a !== undefined).map((a) => JSON.stringify(a)).join(', ')}`);
const mediaKey = (required: boolean): AttrCheck => (v) => {
  if (v === undefined || v === null || v === '') return required ? 'is required' : null;
  if (typeof v !== 'string' || !MEDIA_KEY_RE.test(v) || v.includes('..')) return 'must be an uploaded image';
  return null;
};
const positiveInt: AttrCheck = (v) => (Number.isInteger(v) && (v as number) > 0 ? null : 'must be a positive whole number');
const optionalInt: AttrCheck = (v) => (v === undefined || v === null || (Number.isInteger(v) && (v as number) >= 0) ? null : 'must be a whole number');

/** What an href may be: a site path, an http(s) or mailto address; never javascript: or data:. */
export function safeHref(v: unknown): string | null {
  if (typeof v !== 'string' || v.length > 2000) return null;
  // Browsers drop tabs and newlines from a URL and read a backslash as a slash: "/\\host" and
  // "/\t/host" lead to another host, so only a slash followed by neither is a site path.
  const href = v.trim().replace(/[\t\n\r]/g, '');
  if (/^\/(?![/\\])/.test(href)) return href;
  if (href.startsWith('#')) return href;
  try {
    const u = new URL(href);
    if (u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'mailto:') return u.href;
  } catch {
    return null;
  }
  return null;
}

const galleryItems: AttrCheck = (v) => {
  if (!Array.isArray(v)) return 'must be a list of images';
  if (v.length === 0) return 'must hold at least one image';
  if (v.length > STORY_LIMITS.galleryMax) return `may hold at most ${STORY_LIMITS.galleryMax} images`;
  for (const [i, item] of v.entries()) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return `[${i}] must be an image`;
    for (const k of Object.keys(item)) if (!['key', 'alt', 'credit', 'caption'].includes(k)) return `[${i}] has an unknown attribute “${k}”`;
    const it = item as Record<string, unknown>;
    const e = mediaKey(true)(it.key) ?? str(STORY_LIMITS.altMax)(it.alt) ?? str(STORY_LIMITS.creditMax)(it.credit) ?? str(STORY_LIMITS.captionMax)(it.caption);
    if (e) return `[${i}] ${e}`;
  }
  return null;
};

interface NodeSpec {
  /** 'block' nodes sit in the doc, quotes and list items; 'inline' in paragraphs and headings. */
  group: 'block' | 'inline' | 'listItem' | 'doc';
  /** Which groups its children come from; undefined: a leaf. */
  content?: Array<NodeSpec['group']>;
  attrs?: Record<string, AttrCheck>;
  marks?: boolean;
}

export const STORY_NODES: Record<string, NodeSpec> = {
  doc: { group: 'doc', content: ['block'] },
  paragraph: { group: 'block', content: ['inline'], attrs: { textAlign: oneOf(null, undefined) } },
  heading: { group: 'block', content: ['inline'], attrs: { level: oneOf(2, 3), textAlign: oneOf(null, undefined) } },
  bulletList: { group: 'block', content: ['listItem'] },
  orderedList: { group: 'block', content: ['listItem'], attrs: { start: optionalInt, type: oneOf(null, undefined, '1') } },
  listItem: { group: 'listItem', content: ['block'] },
  blockquote: { group: 'block', content: ['block'] },
  horizontalRule: { group: 'block' },
  image: {
    group: 'block',
    attrs: { key: mediaKey(true), alt: str(STORY_LIMITS.altMax), credit: str(STORY_LIMITS.creditMax), caption: str(STORY_LIMITS.captionMax) },
  },
  gallery: { group: 'block', attrs: { items: galleryItems } },
  youtube: {
    group: 'block',
    attrs: { videoId: (v) => (typeof v === 'string' && YOUTUBE_ID_RE.test(v) ? null : 'must be a YouTube video id'), start: optionalInt, caption: str(STORY_LIMITS.captionMax) },
  },
  liveCard: {
    group: 'block',
    attrs: { kind: oneOf(...LIVE_CARD_KINDS), id: positiveInt, label: str(300) },
  },
  text: { group: 'inline', marks: true },
  hardBreak: { group: 'inline' },
};

export const STORY_MARKS: Record<string, Record<string, AttrCheck>> = {
  bold: {},
  italic: {},
  link: {
    href: (v) => (safeHref(v) ? null : 'must be a web address (http, https or mailto) or a path on this site'),
    // TipTap's Link writes these into the JSON; the renderer sets its own rel and target.
    target: oneOf(null, undefined, '_blank'),
    rel: str(200),
    class: oneOf(null, undefined),
    title: str(300),
  },
};

/** The first thing wrong with a document, as a sentence naming where; null when it is valid. */
export function storyDocError(doc: unknown): string | null {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc) || (doc as StoryNode).type !== 'doc') return 'The body must be a story document.';
  let nodes = 0;
  const walk = (node: unknown, where: string, allowed: Array<NodeSpec['group']>): string | null => {
    if (++nodes > STORY_LIMITS.nodesMax) return `The body has more than ${STORY_LIMITS.nodesMax} parts.`;
    if (!node || typeof node !== 'object' || Array.isArray(node)) return `${where} is not a node.`;
    const n = node as StoryNode;
    for (const k of Object.keys(n)) if (!['type', 'attrs', 'content', 'marks', 'text'].includes(k)) return `${where} has an unknown key “${k}”.`;
    const spec = typeof n.type === 'string' && Object.prototype.hasOwnProperty.call(STORY_NODES, n.type) ? STORY_NODES[n.type] : undefined;
    if (!spec) return `Unknown node “${String(n.type)}” at ${where}.`;
    if (!allowed.includes(spec.group)) return `A “${n.type}” may not stand at ${where}.`;
    if (n.attrs !== undefined) {
      if (!n.attrs || typeof n.attrs !== 'object' || Array.isArray(n.attrs)) return `${where} (${n.type}) has attributes that are not an object.`;
      for (const k of Object.keys(n.attrs)) if (!spec.attrs || !Object.prototype.hasOwnProperty.call(spec.attrs, k)) return `Unknown attribute “${k}” on ${n.type} at ${where}.`;
    }
    for (const [k, check] of Object.entries(spec.attrs ?? {})) {
      const e = check(n.attrs?.[k]);
      if (e) return `${n.type} at ${where}: “${k}” ${e}.`;
    }
    if (n.type === 'text') {
      if (typeof n.text !== 'string' || n.text.length === 0) return `Text at ${where} is empty.`;
    } else if (n.text !== undefined) return `${where} (${n.type}) may not hold text directly.`;
    if (n.marks !== undefined) {
      if (!spec.marks) return `${where} (${n.type}) may not have marks.`;
      if (!Array.isArray(n.marks)) return `${where}: marks must be a list.`;
      for (const [i, m] of n.marks.entries()) {
        const markAttrs = m && typeof m === 'object' && typeof m.type === 'string' && Object.prototype.hasOwnProperty.call(STORY_MARKS, m.type) ? STORY_MARKS[m.type] : undefined;
        if (!markAttrs) return `Unknown mark “${String(m?.type)}” at ${where}.marks[${i}].`;
        for (const k of Object.keys(m)) if (k !== 'type' && k !== 'attrs') return `${where}.marks[${i}] has an unknown key “${k}”.`;
        if (m.attrs !== undefined && (!m.attrs || typeof m.attrs !== 'object' || Array.isArray(m.attrs))) return `${where}.marks[${i}] has attributes that are not an object.`;
        for (const k of Object.keys(m.attrs ?? {})) if (!Object.prototype.hasOwnProperty.call(markAttrs, k)) return `Unknown attribute “${k}” on ${m.type} at ${where}.marks[${i}].`;
        for (const [k, check] of Object.entries(markAttrs)) {
          const e = check(m.attrs?.[k]);
          if (e) return `${m.type} at ${where}.marks[${i}]: “${k}” ${e}.`;
        }
      }
    }
    if (n.content !== undefined) {
      if (!spec.content) return `${where} (${n.type}) may not have content.`;
      if (!Array.isArray(n.content)) return `${where}: content must be a list.`;
      for (const [i, child] of n.content.entries()) {
        const e = walk(child, `${where}.content[${i}]`, spec.content);
        if (e) return e;
      }
    }
    if ((n.type === 'bulletList' || n.type === 'orderedList' || n.type === 'listItem' || n.type === 'blockquote') && !(n.content?.length)) return `${where} (${n.type}) is empty.`;
    return null;
  };
  return walk(doc, 'body', ['doc']);
}

export function emptyStoryDoc(): StoryDoc {
  return { type: 'doc', content: [{ type: 'paragraph' }] };
}

/** Today's bodies (paragraphs separated by blank lines) as a document. */
export function storyDocFromParagraphs(body: string): StoryDoc {
  const paragraphs = body.split(/\n{2,}/).map((p) => p.trim()).filter(Boolean);
  if (paragraphs.length === 0) return emptyStoryDoc();
  return { type: 'doc', content: paragraphs.map((p) => ({ type: 'paragraph', content: [{ type: 'text', text: p }] })) };
}

/** Every node of a document, depth first, with the attributes the checks read. */
export function* storyNodes(node: StoryNode): Generator<StoryNode> {
  yield node;
  for (const child of node.content ?? []) yield* storyNodes(child);
}

/** Words in a text, as a newsroom counts them. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** "TK" (to come), the newsroom's mark for a fact still missing. */
export const TK_RE = /\bTK\b/;
