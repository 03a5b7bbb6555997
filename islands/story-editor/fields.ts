import { emptyStoryDoc, STORY_FIELDS, type StoryField } from '../../shared/newsroom';
import type { StoryFields } from '../../shared/story-dto';

// A story's fields as the editor compares them: which changed since the server last saw them.

export function blankFields(typeId: number | null, byline: string): StoryFields {
  return {
    name: '', slug: '', excerpt: '', type_id: typeId, doc: emptyStoryDoc(), image_key: null, image_alt: '', image_credit: '',
    seo_title: '', seo_description: '', canonical_url: '', social_image_key: null, is_sponsored: false, sponsor_name: '', author_name: byline,
  };
}

/** Deep equality of JSON values (the fields are JSON: the body is a tree). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => sameJson(v, bb[i]));
  }
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The fields of `mine` that differ from `base`, as a save sends them. */
export function changedFields(mine: StoryFields, base: StoryFields, skip: readonly StoryField[] = []): Partial<StoryFields> {
  const out: Record<string, unknown> = {};
  for (const f of STORY_FIELDS) if (!skip.includes(f) && !sameJson(mine[f], base[f])) out[f] = mine[f];
  return out as Partial<StoryFields>;
}

export const hasChanges = (mine: StoryFields, base: StoryFields) => Object.keys(changedFields(mine, base)).length > 0;
