import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { LoginRequest, PendingAction } from '../../common/auth-events';
import type { LoginPayload } from '../api';

// The auth dialogs (spec 2 §3/§4): login, sign-up and reset are mutually exclusive; hiding or
// switching clears the error; each request goes requested → fulfilled or rejected.

export type DialogName = 'login' | 'signup' | 'reset' | null;
export type RequestStatus = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface AuthDialogState {
  open: DialogName;
  status: RequestStatus;
  /** First message per field: email, password, non_field_errors. */
  errors: Record<string, string>;
  pendingAction: PendingAction | null;
  redirect: string | null;
  loginSuccessful: boolean;
  resetPasswordSuccessful: boolean;
  resetEmail: string | null;
}

export const initialAuthDialogState: AuthDialogState = {
  open: null,
  status: 'idle',
  errors: {},
  pendingAction: null,
  redirect: null,
  loginSuccessful: false,
  resetPasswordSuccessful: false,
  resetEmail: null,
};

const cleared = (s: AuthDialogState, open: DialogName) => {
  s.open = open;
  s.status = 'idle';
  s.errors = {};
  s.resetPasswordSuccessful = false;
};

export const authDialogSlice = createSlice({
  name: 'authDialog',
  initialState: initialAuthDialogState,
  reducers: {
    loginOpened(s, a: PayloadAction<LoginRequest | undefined>) {
      cleared(s, a.payload?.signup ? 'signup' : 'login');
      s.pendingAction = a.payload?.pendingAction ?? null;
      s.redirect = a.payload?.redirect ?? null;
    },
    signupOpened(s) {
      cleared(s, 'signup');
    },
    resetOpened(s) {
      cleared(s, 'reset');
    },
    closed(s) {
      cleared(s, null);
      s.pendingAction = null;
      s.redirect = null;
    },
    loginRequested(s, _a: PayloadAction<LoginPayload>) {
      s.status = 'loading';
      s.errors = {};
    },
    loginFulfilled(s) {
      s.status = 'succeeded';
      s.loginSuccessful = true;
    },
    loginRejected(s, a: PayloadAction<Record<string, string>>) {
      s.status = 'failed';
      s.errors = a.payload;
    },
    signupRequested(s, _a: PayloadAction<LoginPayload>) {
      s.status = 'loading';
      s.errors = {};
    },
    signupFulfilled(s) {
      s.status = 'succeeded';
      s.loginSuccessful = true;
    },
    signupRejected(s, a: PayloadAction<Record<string, string>>) {
      s.status = 'failed';
      s.errors = a.payload;
    },
    resetRequested(s, _a: PayloadAction<{ email: string }>) {
      s.status = 'loading';
      s.errors = {};
    },
    resetFulfilled(s, a: PayloadAction<{ email: string }>) {
      s.status = 'succeeded';
      s.resetPasswordSuccessful = true;
      s.resetEmail = a.payload.email;
    },
    resetRejected(s, a: PayloadAction<Record<string, string>>) {
      s.status = 'failed';
      s.errors = a.payload;
    },
    appleLoginRequested(s, _a: PayloadAction<{ idToken: string }>) {
      s.status = 'loading';
      s.errors = {};
    },
  },
});

export const authDialog = authDialogSlice.actions;
