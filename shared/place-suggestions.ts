// Readers' suggested edits to a place (issue 39): the kinds a reader may suggest and the
// limits their form and the server share.

export const SUGGESTION_KINDS = ['closed', 'moved', 'hours', 'phone', 'website', 'name'] as const;
export type SuggestionKind = (typeof SUGGESTION_KINDS)[number];

/** What the form's radio buttons say, in this order. */
export const SUGGESTION_KIND_LABELS: Record<SuggestionKind, string> = {
  closed: 'It has closed for good',
  moved: 'It has moved',
  hours: 'The hours are wrong',
  phone: 'The phone number is wrong',
  website: 'The website is wrong',
  name: 'The name is wrong',
};

export const SUGGESTION_STATUSES = ['pending', 'applied', 'dismissed'] as const;
export type SuggestionStatus = (typeof SUGGESTION_STATUSES)[number];

export const SUGGESTION_NOTE_MAX = 500;
/** Suggestions a day per member, or per address for guests. */
export const SUGGESTIONS_PER_DAY = 10;
/** "Closed" reports from different people that flag a place at the top of the staff page. */
export const CLOSED_REPORTS_FLAG = 3;
