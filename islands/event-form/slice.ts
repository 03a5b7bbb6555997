import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { LIMITS, SCHEDULE_TYPES, type ScheduleType } from '../../shared/constants';
import type { EventFormInitialState, ImageUploadResponse, VenueSuggestion } from './types';

// The add-event form's state (spec 1 §4 "Event form"): the schedule tab, the venue block
// (multiple venues / virtual event clear, disable and store venue, address and listing;
// unchecking restores them; each checkbox disables the other; a chosen listing renames the
// field to venue_display_name), the weekly days, the irregular rows, the uploaded image, the
// venue type-ahead, the 'Add an image to get noticed' confirmation and the server's errors.
// The type-ahead's 'No results found' (spec 2 §5) is a search `done` with no suggestions, as in
// the listing search panel's slice.

export interface Venue {
  name: string;
  address: string;
  listingId: string;
  /** The name of the chosen listing: leaving the field with other text unchooses it (spec 1 §4). */
  chosenName?: string;
}

/** Where the venue search stands: idle until a search starts; `done` with none is 'nothing found'. */
export type VenueSearchStatus = 'idle' | 'loading' | 'done' | 'failed';

export const IMAGE_FIELDS = ['uploaded_image_url', 'thumbnail_image_url', 'hub_page_image_top', 'hub_page_image_left', 'thumbnail_width', 'thumbnail_height'] as const;
export type ImageFieldName = (typeof IMAGE_FIELDS)[number];

export interface EventFormState {
  scheduleType: ScheduleType;
  venue: Venue;
  stored: Venue | null;
  multipleVenues: boolean;
  virtual: boolean;
  weekdays: string[];
  /** One id per irregular date row: a removed row takes its own values with it. */
  irregularRows: number[];
  nextRowId: number;
  image: { status: 'empty' | 'uploading' | 'uploaded' | 'error'; error: string | null; fields: Record<ImageFieldName, string> };
  suggestions: VenueSuggestion[];
  venueSearch: VenueSearchStatus;
  errors: Record<string, string[]>;
  submitting: boolean;
  confirmImage: boolean;
  formError: string | null;
}

const isOn = (v: string | undefined) => /^(on|true|1)$/i.test(v ?? '');
const emptyImage = (): Record<ImageFieldName, string> => Object.fromEntries(IMAGE_FIELDS.map((n) => [n, ''])) as Record<ImageFieldName, string>;

/** One blank date row to start; after a failed post, as many rows as were sent. */
function postedRows(raw: string | undefined): number {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? Math.min(100, n) : 1;
}

export function eventFormFromInitialState(init?: Partial<EventFormInitialState>): EventFormState {
  const v = init?.values ?? {};
  const type = (SCHEDULE_TYPES as readonly string[]).includes(v.schedule_type ?? '') ? (v.schedule_type as ScheduleType) : 'single_day';
  const fields = emptyImage();
  for (const n of IMAGE_FIELDS) fields[n] = v[n] ?? '';
  return {
    scheduleType: type,
    venue: { name: v.venue_display_name || v.venue_name || '', address: v.address ?? '', listingId: v.listing ?? '', chosenName: v.listing ? v.venue_display_name || v.venue_name : undefined },
    stored: null,
    multipleVenues: isOn(v.is_multiple_venues),
    virtual: isOn(v.is_virtual_event),
    weekdays: init?.weekdays ?? [],
    irregularRows: Array.from({ length: postedRows(v['irregular-TOTAL_FORMS']) }, (_, i) => i),
    nextRowId: postedRows(v['irregular-TOTAL_FORMS']),
    image: { status: fields.uploaded_image_url ? 'uploaded' : 'empty', error: null, fields },
    suggestions: [],
    venueSearch: 'idle',
    errors: init?.errors ?? {},
    submitting: false,
    confirmImage: false,
    formError: null,
  };
}

/** Centre the aspect-fill thumbnail in the 300x200 box. */
export function imageFieldsFrom(res: ImageUploadResponse): Record<ImageFieldName, string> {
  const { width, height } = res.thumbnail_dimensions;
  return {
    uploaded_image_url: res.uploaded_image_url,
    thumbnail_image_url: res.thumbnail_url,
    hub_page_image_top: String(Math.max(0, Math.round((height - LIMITS.eventImageBoxHeight) / 2))),
    hub_page_image_left: String(Math.max(0, Math.round((width - LIMITS.eventImageBoxWidth) / 2))),
    thumbnail_width: String(width),
    thumbnail_height: String(height),
  };
}

function placeless(state: EventFormState, on: boolean) {
  const wasPlaceless = state.multipleVenues || state.virtual;
  if (on && !wasPlaceless) {
    state.stored = state.venue;
    state.venue = { name: '', address: '', listingId: '' };
    state.suggestions = [];
    state.venueSearch = 'idle';
  }
}

function restore(state: EventFormState) {
  if (!state.multipleVenues && !state.virtual && state.stored) {
    state.venue = state.stored;
    state.stored = null;
  }
}

export const eventFormSlice = createSlice({
  name: 'eventForm',
  initialState: eventFormFromInitialState(),
  reducers: {
    scheduleTypeChanged(state, action: PayloadAction<ScheduleType>) {
      state.scheduleType = action.payload;
    },
    multipleVenuesToggled(state, action: PayloadAction<boolean>) {
      if (state.virtual) return; // the two disable each other
      placeless(state, action.payload);
      state.multipleVenues = action.payload;
      restore(state);
    },
    virtualToggled(state, action: PayloadAction<boolean>) {
      if (state.multipleVenues) return;
      placeless(state, action.payload);
      state.virtual = action.payload;
      restore(state);
    },
    /**
     * Typing in the venue field searches again; a chosen listing stays chosen while the member
     * types, until the field is cleared (or left with other text), which makes it a plain
     * venue_name again.
     */
    venueTyped(state, action: PayloadAction<string>) {
      state.venue.name = action.payload;
      if (!action.payload.trim()) {
        state.venue.listingId = '';
        delete state.venue.chosenName;
      }
      if (action.payload.trim().length <= 2) {
        state.suggestions = [];
        state.venueSearch = 'idle';
      }
    },
    /**
     * Focus left the venue field (spec 1 §4 "blur or clear resets to venue_name"): text other
     * than the chosen listing's name is the member's own venue, kept as they typed it, and the
     * field is venue_name again with no listing. The listing's address stays for them to edit.
     */
    venueLeft(state) {
      if (!state.venue.listingId || state.venue.name.trim() === state.venue.chosenName) return;
      state.venue.listingId = '';
      delete state.venue.chosenName;
    },
    venueChosen(state, action: PayloadAction<VenueSuggestion>) {
      if (action.payload.kind === 'address') {
        // An address places the venue (the server reads it); the venue's name stays the member's.
        state.venue.address = action.payload.address;
      } else {
        state.venue = { name: action.payload.name, address: action.payload.address, listingId: String(action.payload.id), chosenName: action.payload.name };
      }
      state.suggestions = [];
      state.venueSearch = 'idle';
    },
    suggestionsClosed(state) {
      state.suggestions = [];
      state.venueSearch = 'idle';
    },
    searchStarted(state) {
      state.venueSearch = 'loading';
    },
    /** The places matching what is typed; none is 'No results found'. */
    suggestionsLoaded(state, action: PayloadAction<VenueSuggestion[]>) {
      state.suggestions = action.payload;
      state.venueSearch = 'done';
    },
    suggestionsFailed(state) {
      state.suggestions = [];
      state.venueSearch = 'failed';
    },
    addressChanged(state, action: PayloadAction<string>) {
      state.venue.address = action.payload;
    },
    weekdayToggled(state, action: PayloadAction<string>) {
      const i = state.weekdays.indexOf(action.payload);
      if (i >= 0) state.weekdays.splice(i, 1);
      else state.weekdays.push(action.payload);
    },
    irregularRowAdded(state) {
      if (state.irregularRows.length >= 100) return;
      state.irregularRows.push(state.nextRowId);
      state.nextRowId += 1;
    },
    /** A date row is removed; one row always stays. */
    irregularRowRemoved(state, action: PayloadAction<number>) {
      if (state.irregularRows.length <= 1) return;
      state.irregularRows = state.irregularRows.filter((id) => id !== action.payload);
    },
    imageSelected(state, _action: PayloadAction<{ fileId: string; name: string }>) {
      state.image.status = 'uploading';
      state.image.error = null;
    },
    imageRejected(state, action: PayloadAction<string>) {
      state.image.status = state.image.fields.uploaded_image_url ? 'uploaded' : 'error';
      state.image.error = action.payload;
    },
    imageUploaded(state, action: PayloadAction<ImageUploadResponse>) {
      state.image = { status: 'uploaded', error: null, fields: imageFieldsFrom(action.payload) };
      delete state.errors.image;
    },
    imageRemoved(state) {
      state.image = { status: 'empty', error: null, fields: emptyImage() };
    },
    submitRequested(state, _action: PayloadAction<{ entries: Array<[string, string]>; withoutImage?: boolean }>) {
      state.confirmImage = false;
      state.formError = null;
    },
    imageConfirmOpened(state) {
      state.confirmImage = true;
    },
    imageConfirmClosed(state) {
      state.confirmImage = false;
    },
    submitStarted(state) {
      state.submitting = true;
    },
    submitFailed(state, action: PayloadAction<{ errors: Record<string, string[]>; message?: string }>) {
      state.submitting = false;
      state.errors = action.payload.errors;
      state.formError = action.payload.message ?? 'Please correct the errors below.';
    },
    submitSucceeded(state) {
      state.errors = {};
    },
  },
});

export const eventForm = eventFormSlice.actions;

/** The venue field is named venue_display_name only while a chosen listing is in it. */
export const venueFieldName = (s: EventFormState) => (s.venue.listingId ? 'venue_display_name' : 'venue_name');

/** What the venue field says instead of places, if anything (the listing search panel's words). */
export function venueSearchMessage(s: EventFormState): string | null {
  if (s.suggestions.length) return null;
  if (s.venueSearch === 'loading') return 'Searching…';
  if (s.venueSearch === 'failed') return 'Suggestions could not be loaded.';
  if (s.venueSearch === 'done') return 'No results found';
  return null;
}
