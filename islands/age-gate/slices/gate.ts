import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { AgeGateDecision } from '../../../shared/age-gate';

// The age gate dialog (spec 2 §4): open until accepted; accepting closes it, declining
// leaves for the home page. 'checking' until the saga has read the cookie, so a reader who
// already answered never sees the dialog flash.

export type GateStatus = 'checking' | 'open' | 'accepted' | 'declined';

export interface GateState {
  status: GateStatus;
  remember: boolean;
  legalAge: number;
}

export function initialGateState(legalAge: number): GateState {
  return { status: 'checking', remember: false, legalAge };
}

export const gateSlice = createSlice({
  name: 'gate',
  initialState: initialGateState(19),
  reducers: {
    /** The stored answer, read once on mount. */
    checked(state, action: PayloadAction<AgeGateDecision>) {
      if (state.status !== 'checking') return;
      state.status = action.payload === 'pass' ? 'accepted' : action.payload === 'home' ? 'declined' : 'open';
    },
    rememberToggled(state, action: PayloadAction<boolean>) {
      state.remember = action.payload;
    },
    accepted(state) {
      if (state.status === 'open') state.status = 'accepted';
    },
    declined(state) {
      if (state.status === 'open') state.status = 'declined';
    },
  },
});

export const gate = gateSlice.actions;
