import type { StoryDoc } from '../../shared/newsroom';

// "Nothing typed is lost" for a place's review: the editor's document is kept in localStorage,
// one key a place, with the saved version it was typed on, until a page shows that same
// document (the save went through, or a refused form came back with it). The newsroom's
// local-copy.ts keeps a story's fields in IndexedDB against its numbered versions; a review is
// one document, so a plain key is enough here.

export interface ReviewCopy {
  doc: StoryDoc;
  /** The saved review's version (reviewVersion on the server) the text was typed on. */
  version: string;
  /** When it was kept (ms since the epoch). */
  at: number;
}

const key = (placeId: number) => `place-review:${placeId}`;

export function readReviewCopy(placeId: number): ReviewCopy | null {
  try {
    const raw = localStorage.getItem(key(placeId));
    const copy = raw ? (JSON.parse(raw) as ReviewCopy) : null;
    return copy && copy.doc?.type === 'doc' && typeof copy.version === 'string' ? copy : null;
  } catch {
    return null;
  }
}

export function keepReviewCopy(placeId: number, copy: ReviewCopy): void {
  try {
    localStorage.setItem(key(placeId), JSON.stringify(copy));
  } catch {
    // full or blocked: the page itself still holds the text
  }
}

export function dropReviewCopy(placeId: number): void {
  try {
    localStorage.removeItem(key(placeId));
  } catch {
    // blocked: nothing was kept either
  }
}
