import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { call, getContext, put, takeEvery, takeLatest } from 'redux-saga/effects';
import type { ProfileDTO } from '../../shared/dto';
import { api, ApiError, fieldErrorsOf } from '../common/api';

// The onboarding wizard's data (spec 1 §2, §4): the member's profile, loaded at start when the
// page did not print it, and the one save of step 3 (email and newsletter boxes).

export type OnboardingStatus = 'idle' | 'loading' | 'ready' | 'saving' | 'saved' | 'failed';
export type ProfilePatch = Partial<ProfileDTO>;

export interface ProfileState {
  data: ProfileDTO | null;
  status: OnboardingStatus;
  errors: Record<string, string>;
}

export const onboardingApi = {
  profile: () => api.get<ProfileDTO>('/api/v2/profiles/me/'),
  patchProfile: (patch: ProfilePatch) => api.patch<ProfileDTO>('/api/v2/profiles/me/', patch),
};
export type OnboardingApi = typeof onboardingApi;

export interface OnboardingSagaContext {
  api: OnboardingApi;
  /** Leaves the page (a guest is sent to the login page). */
  navigate: (url: string) => void;
}

export const profileSlice = createSlice({
  name: 'profile',
  initialState: { data: null, status: 'idle', errors: {} } as ProfileState,
  reducers: {
    profileRequested(state) {
      state.status = 'loading';
    },
    profileLoaded(state, action: PayloadAction<ProfileDTO>) {
      state.data = action.payload;
      state.status = 'ready';
    },
    profileLoadFailed(state) {
      state.status = 'failed';
    },
    saveRequested(state, _action: PayloadAction<ProfilePatch>) {
      state.status = 'saving';
      state.errors = {};
    },
    profileSaved(state, action: PayloadAction<ProfileDTO>) {
      state.data = action.payload;
      state.status = 'saved';
    },
    saveFailed(state, action: PayloadAction<Record<string, string>>) {
      state.status = 'failed';
      state.errors = action.payload;
    },
  },
});

export const profileActions = profileSlice.actions;

/** Flow: load the profile; a 401 sends the guest to the login page. */
export function* loadProfileSaga() {
  const client: OnboardingApi = yield getContext('api');
  const navigate: (url: string) => void = yield getContext('navigate');
  try {
    const profile: ProfileDTO = yield call(client.profile);
    yield put(profileActions.profileLoaded(profile));
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      navigate(`/accounts/login?next=${encodeURIComponent('/accounts/onboarding')}`);
    }
    yield put(profileActions.profileLoadFailed());
  }
}

/** Flow: step 3's save; errors go back to the form (the email's first message). */
export function* saveProfileSaga(action: PayloadAction<ProfilePatch>) {
  const client: OnboardingApi = yield getContext('api');
  try {
    const profile: ProfileDTO = yield call(client.patchProfile, action.payload);
    yield put(profileActions.profileSaved(profile));
  } catch (err) {
    yield put(profileActions.saveFailed(fieldErrorsOf(err, ['email', ...Object.keys(action.payload)])));
  }
}

export function* onboardingSaga() {
  yield takeLatest(profileActions.profileRequested.type, loadProfileSaga);
  yield takeEvery(profileActions.saveRequested.type, saveProfileSaga);
}
