import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { NavUser } from '../types';

// Who the navbar thinks is signed in. The page says so first; the auth check confirms it or
// marks the visitor anonymous (spec 2 §4 "Session").

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
