import { LIVE_COMMENT_LIMITS, LIVE_EDITING, liveCommentError, roleAtLeast, type LiveComment, type NewsroomRole } from '../../../shared/newsroom';

// Comments on a passage (issue 42): an editor's note to a writer, resolved when done, never
// published. Each is a plain object in the shared document's comments map, keyed by its id and
// replaced whole on every change; the server checks each change (who wrote it, that only the
// resolution changes afterwards, who may delete it). This file has no Yjs, so the panel can
// use it without loading the shared document's code (comments.ts reads and writes the map).

/** The shared document's map of comments. */
export const COMMENTS_FIELD = LIVE_EDITING.commentsField;

export const COMMENT_LIMITS = LIVE_COMMENT_LIMITS;

export type { LiveComment };

export interface CommentMember {
  id: number;
  name: string;
  role?: NewsroomRole | null;
}

/** A passage to comment on, pinned to the shared body. */
export interface CommentAnchor {
  anchor: LiveComment['anchor'];
  quote: string;
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** 20 URL-safe characters, random (the server takes 10 to 40 of [A-Za-z0-9_-]). */
export function newCommentId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(20)), (b) => ID_ALPHABET[b & 63]).join('');
}

export function createComment(member: CommentMember, text: string, at: CommentAnchor, now = new Date()): LiveComment {
  return {
    id: newCommentId(),
    authorId: member.id,
    authorName: member.name,
    text: text.trim().slice(0, COMMENT_LIMITS.textMax),
    createdAt: now.toISOString(),
    resolved: false,
    resolvedBy: null,
    anchor: { ...at.anchor },
    quote: at.quote.slice(0, COMMENT_LIMITS.quoteMax),
  };
}

/** The comment resolved by `by` (a name), or reopened (null). */
export const withResolution = (c: LiveComment, by: string | null): LiveComment => ({ ...c, resolved: by !== null, resolvedBy: by });

/** Only its author rewrites a comment (the server refuses anyone else's). */
export const mayEdit = (c: LiveComment, member: CommentMember): boolean => c.authorId === member.id;

/** Anyone with the story open resolves; the author, or an editor, deletes. */
export const mayDelete = (c: LiveComment, member: CommentMember): boolean => c.authorId === member.id || roleAtLeast(member.role, 'editor');

/** Open ones first, each group oldest first. */
export function orderComments(list: LiveComment[]): LiveComment[] {
  return [...list].sort((a, b) => Number(a.resolved) - Number(b.resolved) || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/** A value of the map that reads as a comment (a bad value, which the server refuses, is left out). */
export const asComment = (id: string, value: unknown): LiveComment | null => (liveCommentError(value, id) === null ? (value as LiveComment) : null);
