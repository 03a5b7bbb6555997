import { emptyStoryDoc, type StoryDoc, type StoryNode } from './newsroom';

// A place's review as a document in the story schema (issue 39): the places desk's form posts
// it from the editor island (`review_doc`), or as plain text without JavaScript, which becomes
// the same document here; the island starts from this too when a review has no document yet.

/** Plain text as a document: a blank line starts a paragraph, a single line break stays one. */
export function reviewDocFromText(text: string): StoryDoc {
  const paragraphs = text.replace(/\r\n?/g, '\n').split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
  if (!paragraphs.length) return emptyStoryDoc();
  return {
    type: 'doc',
    content: paragraphs.map((p) => {
      const content: StoryNode[] = [];
      p.split('\n').forEach((line, i) => {
        if (i > 0) content.push({ type: 'hardBreak' });
        if (line) content.push({ type: 'text', text: line });
      });
      return { type: 'paragraph', content };
    }),
  };
}

/** The hidden field the island fills with the document's JSON on submit. */
export const REVIEW_DOC_FIELD = 'review_doc';
/** The hidden field with the saved review's version the form was made on (two editors saving). */
export const REVIEW_VERSION_FIELD = 'review_version';

/** What the review page prints for the editor island (server/apps/places-desk/pages.ts). */
export interface ReviewEditorInitialState {
  placeId: number;
  /** The document to start from: the saved one, or what was posted when refused; null: the textarea's text. */
  doc: StoryDoc | null;
  /** The saved review's version the form carries: a copy kept on this device names the one it was typed on. */
  version: string;
}
