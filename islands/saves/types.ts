import type { RatingIdsEntry, SavesIslandKind, SavesIslandStateDTO } from '../../shared/dto';

// What the page tells the saves island (server/apps/*/pages.ts → addIsland(res, 'saves', …)),
// and the kinds of saved thing it handles (spec 1 §3: a bookmark map per kind).

/** The saved-id maps the island may need; a page names only those its controls use. */
export type SaveKind = SavesIslandKind;

/** The kinds a plain toggle (create if absent, delete if present) applies to. */
export type ToggleKind = Exclude<SaveKind, 'ratings'>;

export type SavesInitialState = SavesIslandStateDTO;

/** listing_ids of ratings answers listing id → this. */
export type RatingEntry = RatingIdsEntry;

/** The placeholders templates/partials/save-controls.njk prints (data-save). */
export type ControlType = 'listing' | 'listing-compact' | 'article' | 'video' | 'event';

/** A save being created has no id yet: the optimistic entry carries this one. */
export const PENDING_ID = -1;
