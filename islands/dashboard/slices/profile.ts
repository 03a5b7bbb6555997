import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ProfileDTO } from '../../../shared/dto';
import type { NewsletterField, PasswordChange } from '../api';

// The member's profile and the state of its edits (spec 1 §4 "Profile edit"): one section
// open at a time (opening one closes the others), each save a finite status. The typed
// values stay in the forms; only what the server answered lives here.

export type RequestStatus = 'idle' | 'saving' | 'succeeded' | 'failed';
export type ProfileSection = 'none' | 'name' | 'photo' | 'password' | 'email';

export interface ProfileState {
  data: ProfileDTO | null;
  openSection: ProfileSection;
  nameStatus: RequestStatus;
  nameError: string | null;
  photoStatus: RequestStatus;
  photoError: string | null;
  passwordStatus: RequestStatus;
  passwordErrors: Record<string, string>;
  emailStatus: RequestStatus;
  emailError: string | null;
  newsletterError: string | null;
  calendarStatus: RequestStatus;
}

export const initialProfileState: ProfileState = {
  data: null,
  openSection: 'none',
  nameStatus: 'idle',
  nameError: null,
  photoStatus: 'idle',
  photoError: null,
  passwordStatus: 'idle',
  passwordErrors: {},
  emailStatus: 'idle',
  emailError: null,
  newsletterError: null,
  calendarStatus: 'idle',
};

export const profileSlice = createSlice({
  name: 'profile',
  initialState: initialProfileState,
  reducers: {
    profileLoaded(state, action: PayloadAction<ProfileDTO>) {
      state.data = action.payload;
    },
    sectionOpened(state, action: PayloadAction<ProfileSection>) {
      state.openSection = action.payload;
      state.nameError = null;
      state.photoError = null;
      state.emailError = null;
      state.passwordErrors = {};
      state.passwordStatus = 'idle';
    },
    /** Naming the section closes it only if it is still the open one: a late close (the name
     *  form's blur timer) must not shut the section the member opened meanwhile. */
    sectionClosed(state, action: PayloadAction<ProfileSection | undefined>) {
      if (action.payload === undefined || state.openSection === action.payload) state.openSection = 'none';
    },

    nameSaveRequested(state, _action: PayloadAction<string>) {
      state.nameStatus = 'saving';
      state.nameError = null;
    },
    nameSaved(state, action: PayloadAction<ProfileDTO>) {
      state.data = action.payload;
      state.nameStatus = 'succeeded';
      if (state.openSection === 'name') state.openSection = 'none';
    },
    nameSaveFailed(state, action: PayloadAction<string>) {
      state.nameStatus = 'failed';
      state.nameError = action.payload;
    },

    /** The cropped square as a JPEG data URL (0.95 quality), sent as `avatar` (spec 1 §5). */
    photoSaveRequested(state, _action: PayloadAction<string>) {
      state.photoStatus = 'saving';
      state.photoError = null;
    },
    photoSaved(state, action: PayloadAction<ProfileDTO>) {
      state.data = action.payload;
      state.photoStatus = 'succeeded';
      if (state.openSection === 'photo') state.openSection = 'none';
    },
    photoSaveFailed(state, action: PayloadAction<string>) {
      state.photoStatus = 'failed';
      state.photoError = action.payload;
    },

    passwordChangeRequested(state, _action: PayloadAction<PasswordChange>) {
      state.passwordStatus = 'saving';
      state.passwordErrors = {};
    },
    passwordChanged(state) {
      state.passwordStatus = 'succeeded';
    },
    passwordChangeFailed(state, action: PayloadAction<Record<string, string>>) {
      state.passwordStatus = 'failed';
      state.passwordErrors = action.payload;
    },
    /** 3 s after a successful change the section closes (spec 1 §4). */
    passwordSuccessHidden(state) {
      state.passwordStatus = 'idle';
      if (state.openSection === 'password') state.openSection = 'none';
    },

    emailSaveRequested(state, _action: PayloadAction<string>) {
      state.emailStatus = 'saving';
      state.emailError = null;
    },
    emailSaved(state, action: PayloadAction<ProfileDTO>) {
      state.data = action.payload;
      state.emailStatus = 'succeeded';
      if (state.openSection === 'email') state.openSection = 'none';
    },
    emailSaveFailed(state, action: PayloadAction<string>) {
      state.emailStatus = 'failed';
      state.emailError = action.payload;
    },

    /** A newsletter box was ticked or cleared: shown at once, reverted if the save fails. */
    newsletterToggled(state, action: PayloadAction<{ field: NewsletterField; value: boolean }>) {
      if (state.data) state.data[action.payload.field] = action.payload.value;
      state.newsletterError = null;
    },
    newsletterSaveFailed(state, action: PayloadAction<{ field: NewsletterField; value: boolean; error: string }>) {
      if (state.data) state.data[action.payload.field] = action.payload.value;
      state.newsletterError = action.payload.error;
    },

    calendarChoiceRequested(state, _action: PayloadAction<boolean>) {
      state.calendarStatus = 'saving';
    },
    calendarChoiceSaved(state, action: PayloadAction<ProfileDTO>) {
      state.data = action.payload;
      state.calendarStatus = 'succeeded';
    },
    calendarChoiceFailed(state) {
      state.calendarStatus = 'failed';
    },
  },
});

export const profileActions = profileSlice.actions;
