import { all, call, delay, fork, getContext, put, select, takeEvery, takeLatest } from 'redux-saga/effects';
import type { PayloadAction } from '@reduxjs/toolkit';
import { ApiError, fieldErrorsOf } from '../../common/api';
import { clearStores, isLocalSessionValid, rememberProfile, syncAppVersion } from '../../common/storage';
import { TIMINGS_MS } from '../../../shared/constants';
import type { ProfileDTO } from '../../../shared/dto';
import type { AccountsApi, AuthStatus, LoginPayload } from '../api';
import { authDialog } from '../slices/authDialog';
import { panels } from '../slices/panels';
import { session } from '../slices/session';
import type { AuthDialogState } from '../slices/authDialog';
import type { PanelsState } from '../slices/panels';
import type { SessionState } from '../slices/session';

// One small saga per flow. What they touch outside the store (the API, navigation, the
// current location) comes from the saga context, so tests run them with fakes.

export interface NavbarSagaContext {
  api: AccountsApi;
  navigate: (url: string) => void;
  reload: () => void;
  location: () => { pathname: string; search: string };
  appVersion: string;
}

interface State {
  authDialog: AuthDialogState;
  panels: PanelsState;
  session: SessionState;
}

const LOGIN_FIELDS = ['email', 'password', 'non_field_errors'];

function* ctx<K extends keyof NavbarSagaContext>(key: K) {
  return (yield getContext(key)) as NavbarSagaContext[K];
}

/** Login success: the redirect if one was asked for; on account pages go home; else reload. */
export function* afterLogin() {
  const redirect: string | null = yield select((s: State) => s.authDialog.redirect);
  const location = yield* ctx('location');
  const navigate = yield* ctx('navigate');
  if (redirect) yield call(navigate, redirect);
  else if (location().pathname.includes('/accounts/')) yield call(navigate, '/');
  else yield call(yield* ctx('reload'));
}

export function* loginFlow(action: PayloadAction<LoginPayload>) {
  const api = yield* ctx('api');
  const pending: AuthDialogState['pendingAction'] = yield select((s: State) => s.authDialog.pendingAction);
  try {
    const profile: ProfileDTO = yield call(api.login, action.payload, pending);
    yield put(authDialog.loginFulfilled());
    yield call(rememberProfile, profile.id);
    yield* afterLogin();
  } catch (err) {
    yield put(authDialog.loginRejected(fieldErrorsOf(err, LOGIN_FIELDS)));
  }
}

export function* signupFlow(action: PayloadAction<LoginPayload>) {
  const api = yield* ctx('api');
  try {
    const pending: AuthDialogState['pendingAction'] = yield select((s: State) => s.authDialog.pendingAction);
    const profile: ProfileDTO = yield call(api.signup, action.payload, pending);
    yield put(authDialog.signupFulfilled());
    yield call(rememberProfile, profile.id);
    const { pathname, search } = (yield* ctx('location'))();
    // Onboarding ends by promising the dashboard: it goes there, unless the sign-up carried a
    // remembered action, whose page the member is taken back to.
    const back = pending && !pathname.includes('/accounts/') ? pathname + search : '/accounts/dashboard/';
    yield call(yield* ctx('navigate'), `/accounts/onboarding?next=${encodeURIComponent(back)}`);
  } catch (err) {
    yield put(authDialog.signupRejected(fieldErrorsOf(err, LOGIN_FIELDS)));
  }
}

export function* resetFlow(action: PayloadAction<{ email: string }>) {
  const api = yield* ctx('api');
  try {
    yield call(api.resetPassword, action.payload.email);
    yield put(authDialog.resetFulfilled({ email: action.payload.email }));
  } catch (err) {
    yield put(authDialog.resetRejected(fieldErrorsOf(err, ['email', 'non_field_errors'])));
  }
}

/** Apple: success marks login and goes to /; failure is only logged (spec 2 §8). */
export function* appleFlow(action: PayloadAction<{ idToken: string }>) {
  const api = yield* ctx('api');
  try {
    const profile: ProfileDTO = yield call(api.appleLogin, action.payload.idToken);
    yield put(authDialog.loginFulfilled());
    yield call(rememberProfile, profile.id);
    yield call(yield* ctx('navigate'), '/');
  } catch (err) {
    console.warn('Sign in with Apple failed', err);
    yield put(authDialog.loginRejected({}));
  }
}

export function* searchOpenFlow() {
  const pending: boolean = yield select((s: State) => s.panels.searchPending);
  if (!pending) return;
  yield delay(TIMINGS_MS.searchPanelOpen);
  yield put(panels.searchOpened());
}

/**
 * Logout is the form's own POST (with the CSRF token); this runs synchronously inside the
 * submit event's dispatch, so the stores are clear before the browser leaves the page.
 */
export function* logoutFlow() {
  yield call(clearStores);
}

/**
 * On load: a new app version or a local session idle over 5 days clears the stores; then
 * the auth check names the member (or clears the stores if it fails). A visitor who starts
 * anonymous (no signed-in cookie) needs no request.
 */
export function* authCheckFlow() {
  yield call(syncAppVersion, yield* ctx('appVersion'));
  const local: boolean = yield call(isLocalSessionValid);
  if (!local) yield call(clearStores);
  const status: SessionState['status'] = yield select((s: State) => s.session.status);
  if (status === 'anonymous') {
    yield put(session.authCheckFailed());
    yield call(rememberProfile, null);
    return;
  }
  const api = yield* ctx('api');
  try {
    const status: AuthStatus = yield call(api.authStatus);
    yield put(session.authChecked({ user: { id: status.id, email: status.email, full_name: status.full_name, avatar_url: status.avatar_url ?? null, is_staff: status.is_staff === true }, lastUpdates: status.last_updates }));
    yield call(rememberProfile, status.id, status.last_updates);
  } catch (err) {
    // Only a definite "not signed in" clears the member; a network blip leaves the page as is.
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      yield put(session.authCheckFailed());
      yield call(rememberProfile, null);
    }
  }
}

export function* navbarSaga() {
  yield all([
    takeLatest(authDialog.loginRequested.type, loginFlow),
    takeLatest(authDialog.signupRequested.type, signupFlow),
    takeLatest(authDialog.resetRequested.type, resetFlow),
    takeLatest(authDialog.appleLoginRequested.type, appleFlow),
    takeLatest(panels.searchToggled.type, searchOpenFlow),
    takeEvery(session.logoutRequested.type, logoutFlow),
    fork(authCheckFlow),
  ]);
}
