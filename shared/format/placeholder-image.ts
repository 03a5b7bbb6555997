// A designed picture for anything without a photo of its own (static/img/placeholders/*.svg:
// a tinted background and a line icon for the category, no text), so a card never shows a
// blank box, a letter tile or a broken image. Server templates and islands use the same URLs.

const PLACE_TYPES = new Set(['restaurants', 'bars', 'cafes', 'bakeries', 'take-out', 'food-shops']);

export type PlaceholderKind = 'place' | 'event' | 'article' | 'video';

/** `/static/img/placeholders/{name}.svg`; a place's picture follows its listing type. */
export function placeholderImageUrl(kind: PlaceholderKind, typeSlug?: string | null): string {
  const name = kind === 'place' && typeSlug && PLACE_TYPES.has(typeSlug) ? typeSlug : kind;
  return `/static/img/placeholders/${name}.svg`;
}
