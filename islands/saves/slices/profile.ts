import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SaveKind, SavesInitialState } from '../types';

// Who is saving: the member the page printed (null for guests), the kinds on the page, the
// calendar preference (spec 1 §3: sync_bookmarked_events_to_google_calendar true, false or
// unset) and the event whose save-to-calendar question is open.

export interface ProfileState {
  member: { id: number; email: string } | null;
  kinds: SaveKind[];
  calendarEnabled: boolean;
  calendarSync: boolean | null;
  calendarPromptFor: number | null;
}

export function profileFromInitialState(s: SavesInitialState | undefined): ProfileState {
  return {
    member: s?.member ? { id: s.member.id, email: s.member.email } : null,
    kinds: s?.kinds ?? [],
    calendarEnabled: Boolean(s?.calendarEnabled),
    calendarSync: s?.member?.calendarSync ?? null,
    calendarPromptFor: null,
  };
}

export const profileSlice = createSlice({
  name: 'profile',
  initialState: profileFromInitialState(undefined),
  reducers: {
    /** The session is gone (the auth check said 401/403): act as a guest from now on. */
    signedOut(state) {
      state.member = null;
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
