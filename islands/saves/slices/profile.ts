import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SaveKind, SavesInitialState } from '../types';

// Who is saving: the member the auth check named (null for guests; the page is the same for
// everybody and names nobody), whether that check has answered, the kinds on the page, the
// calendar preference (spec 1 §3: sync_bookmarked_events_to_google_calendar true, false or
// unset) and the event whose save-to-calendar question is open.

export interface ProfileState {
  member: { id: number; email: string } | null;
  /** False while GET /profiles/hi/ is outstanding (the signed-in cookie said to ask): flows wait for it. */
  memberChecked: boolean;
  kinds: SaveKind[];
  calendarEnabled: boolean;
  calendarSync: boolean | null;
  calendarPromptFor: number | null;
}

/** signedIn: the signed-in cookie is there, so the member is asked for; otherwise a guest. */
export function profileFromInitialState(s: SavesInitialState | undefined, signedIn = false): ProfileState {
  return {
    member: null,
    memberChecked: !signedIn,
    kinds: s?.kinds ?? [],
    calendarEnabled: Boolean(s?.calendarEnabled),
    calendarSync: null,
    calendarPromptFor: null,
  };
}

export const profileSlice = createSlice({
  name: 'profile',
  initialState: profileFromInitialState(undefined),
  reducers: {
    /** The auth check named the member, with their calendar preference. */
    memberFound(state, action: PayloadAction<{ member: { id: number; email: string }; calendarSync: boolean | null }>) {
      state.member = action.payload.member;
      state.calendarSync = action.payload.calendarSync;
      state.memberChecked = true;
    },
    /** No session (the auth check said 401/403, or could not be made): act as a guest from now on. */
    signedOut(state) {
      state.member = null;
      state.memberChecked = true;
    },
    calendarPromptOpened(state, action: PayloadAction<{ eventId: number }>) {
      state.calendarPromptFor = action.payload.eventId;
    },
    /** Yes (true), No (false) or dismissed (null) in the save-to-calendar dialog. */
    calendarAnswered(state, _action: PayloadAction<{ choice: boolean | null }>) {
      state.calendarPromptFor = null;
    },
    calendarSyncChanged(state, action: PayloadAction<{ sync: boolean }>) {
      state.calendarSync = action.payload.sync;
    },
  },
});

export const profile = profileSlice.actions;
