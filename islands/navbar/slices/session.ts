import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { NavUser } from '../types';

// Who the navbar thinks is signed in. 'unknown' until the auth check names the member or marks
// the visitor anonymous (spec 2 §4 "Session"); a visitor without the signed-in cookie starts
// anonymous, as the page is the same for everybody and names nobody.

export type SessionStatus = 'unknown' | 'authenticated' | 'anonymous';

export interface SessionState {
  status: SessionStatus;
  user: NavUser | null;
  lastUpdates: Record<string, string | null>;
}

export const sessionSlice = createSlice({
  name: 'session',
  initialState: { status: 'unknown', user: null, lastUpdates: {} } as SessionState,
  reducers: {
    authChecked(s, a: PayloadAction<{ user: NavUser; lastUpdates: Record<string, string | null> }>) {
      s.status = 'authenticated';
      s.user = a.payload.user;
      s.lastUpdates = a.payload.lastUpdates;
    },
    authCheckFailed(s) {
      s.status = 'anonymous';
      s.user = null;
      s.lastUpdates = {};
    },
    /** The logout form is being sent: the saga clears the stores before the page goes. */
    logoutRequested() {},
  },
});

export const session = sessionSlice.actions;
