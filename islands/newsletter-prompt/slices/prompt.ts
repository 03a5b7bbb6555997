import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { looksLikeEmail, type PromptNewsletterType } from '../../../shared/newsletter-prompt';

// The newsletter prompt (spec 2 §4): 'checking' until the cookie is read; never shown while
// the type's cookie exists; editing → pending on a valid submit → subscribed (the success
// view replaces the form) or back to editing with the first email error; closing shows a
// short note; both subscribed and closed hide after 3000 ms ('gone').

export type PromptStatus = 'checking' | 'editing' | 'pending' | 'subscribed' | 'closed' | 'gone';

export interface PromptState {
  type: PromptNewsletterType;
  status: PromptStatus;
  email: string;
  promotions: boolean;
  all: boolean;
  error: string | null;
}

export function initialPromptState(type: PromptNewsletterType): PromptState {
  return { type, status: 'checking', email: '', promotions: false, all: false, error: null };
}

export const INVALID_EMAIL = 'Enter a valid email address.';

export const promptSlice = createSlice({
  name: 'prompt',
  initialState: initialPromptState('news'),
  reducers: {
    checked(state, action: PayloadAction<{ cookie: boolean }>) {
      if (state.status === 'checking') state.status = action.payload.cookie ? 'gone' : 'editing';
    },
    edited(state, action: PayloadAction<Partial<Pick<PromptState, 'email' | 'promotions' | 'all'>>>) {
      Object.assign(state, action.payload);
      if (action.payload.email !== undefined) state.error = null;
    },
    submitted: {
      reducer(state, action: PayloadAction<{ valid: boolean }>) {
        if (state.status !== 'editing') return;
        if (action.payload.valid) {
          state.status = 'pending';
          state.error = null;
        } else state.error = INVALID_EMAIL;
      },
      // The check travels in the action so the saga and the reducer agree on it.
      prepare: (email: string) => ({ payload: { valid: looksLikeEmail(email) } }),
    },
    subscribed(state) {
      if (state.status === 'pending') state.status = 'subscribed';
    },
    failed(state, action: PayloadAction<string>) {
      if (state.status !== 'pending') return;
      state.status = 'editing';
      state.error = action.payload;
    },
    closed(state) {
      if (state.status === 'editing' || state.status === 'pending') state.status = 'closed';
    },
    hidden(state) {
      if (state.status === 'subscribed' || state.status === 'closed') state.status = 'gone';
    },
  },
});

export const prompt = promptSlice.actions;
