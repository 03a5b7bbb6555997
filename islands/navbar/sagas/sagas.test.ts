/// <reference types="jest" />
import { runSaga, type Saga } from 'redux-saga';
import type { Action } from '@reduxjs/toolkit';
import { ApiError } from '../../common/api';
import { readItem, STORAGE_KEYS, writeItem } from '../../common/storage';
import { authDialog, initialAuthDialogState } from '../slices/authDialog';
import { initialPanelsState, panels } from '../slices/panels';
import { session } from '../slices/session';
import type { NavbarRootState } from '../store';
import { authCheckFlow, loginFlow, searchOpenFlow, signupFlow, resetFlow, logoutFlow, type NavbarSagaContext } from './index';

function harness(state: Partial<NavbarRootState> = {}, api: Partial<NavbarSagaContext['api']> = {}, pathname = '/news/') {
  const dispatched: Action[] = [];
  const context: NavbarSagaContext = {
    api: { login: jest.fn(), signup: jest.fn(), resetPassword: jest.fn(), appleLogin: jest.fn(), authStatus: jest.fn(), ...api } as NavbarSagaContext['api'],
    navigate: jest.fn(),
    reload: jest.fn(),
    location: () => ({ pathname, search: '?page=2' }),
    appVersion: '1.0.0',
  };
  const full: NavbarRootState = {
    authDialog: initialAuthDialogState,
    panels: initialPanelsState,
    session: { status: 'unknown', user: null, lastUpdates: {} },
    ...state,
  };
  const run = <A extends unknown[]>(saga: Saga<A>, ...args: A) =>
    runSaga({ dispatch: (a: Action) => dispatched.push(a), getState: () => full, context: context as unknown as Record<string, unknown> }, saga, ...args).toPromise();
  return { run, dispatched, context };
}

const profile = { id: 42, email: 'a@example.com' };

describe('navbar sagas', () => {
  beforeEach(() => localStorage.clear());

  test('login success with no redirect reloads the page and carries the remembered action', async () => {
    const pendingAction = { post_authenticate_action: 'add-favourite', object_id: 9 };
    const h = harness({ authDialog: { ...initialAuthDialogState, pendingAction } }, { login: jest.fn().mockResolvedValue(profile) });
    await h.run(loginFlow, authDialog.loginRequested({ email: 'a@example.com', password: 'pw' }));
    expect(h.context.api.login).toHaveBeenCalledWith({ email: 'a@example.com', password: 'pw' }, pendingAction);
    expect(h.dispatched).toContainEqual(authDialog.loginFulfilled());
    expect(h.context.reload).toHaveBeenCalled();
    expect(readItem(STORAGE_KEYS.profileId)).toBe(42);
  });

  test('login success goes to the redirect, or home from an /accounts/ page', async () => {
    const withRedirect = harness({ authDialog: { ...initialAuthDialogState, redirect: '/events/' } }, { login: jest.fn().mockResolvedValue(profile) });
    await withRedirect.run(loginFlow, authDialog.loginRequested({ email: 'a', password: 'b' }));
    expect(withRedirect.context.navigate).toHaveBeenCalledWith('/events/');
    const onAccounts = harness({}, { login: jest.fn().mockResolvedValue(profile) }, '/accounts/password-reset/');
    await onAccounts.run(loginFlow, authDialog.loginRequested({ email: 'a', password: 'b' }));
    expect(onAccounts.context.navigate).toHaveBeenCalledWith('/');
  });

  test('login failure stores the first message of each field', async () => {
    const h = harness({}, { login: jest.fn().mockRejectedValue(new ApiError(400, { non_field_errors: ['Unable to log in with provided credentials.'] })) });
    await h.run(loginFlow, authDialog.loginRequested({ email: 'a', password: 'b' }));
    expect(h.dispatched).toContainEqual(authDialog.loginRejected({ non_field_errors: 'Unable to log in with provided credentials.' }));
    expect(h.context.reload).not.toHaveBeenCalled();
  });

  test('sign-up success goes to onboarding, which ends on the dashboard it promises', async () => {
    const h = harness({}, { signup: jest.fn().mockResolvedValue(profile) });
    await h.run(signupFlow, authDialog.signupRequested({ email: 'a', password: 'b' }));
    expect(h.context.api.signup).toHaveBeenCalledWith({ email: 'a', password: 'b' }, null);
    expect(h.context.navigate).toHaveBeenCalledWith('/accounts/onboarding?next=%2Faccounts%2Fdashboard%2F');
  });

  test('a sign-up that carried a remembered action sends it, and onboarding comes back here', async () => {
    const pending = { post_authenticate_action: 'add-favourite', object_id: 12 };
    const h = harness({ authDialog: { ...initialAuthDialogState, pendingAction: pending } }, { signup: jest.fn().mockResolvedValue(profile) });
    await h.run(signupFlow, authDialog.signupRequested({ email: 'a', password: 'b' }));
    expect(h.context.api.signup).toHaveBeenCalledWith({ email: 'a', password: 'b' }, pending);
    expect(h.context.navigate).toHaveBeenCalledWith('/accounts/onboarding?next=%2Fnews%2F%3Fpage%3D2');
  });

  test('reset: success keeps the email for the message; failure the first email error', async () => {
    const ok = harness({}, { resetPassword: jest.fn().mockResolvedValue({}) });
    await ok.run(resetFlow, authDialog.resetRequested({ email: 'a@b.c' }));
    expect(ok.dispatched).toContainEqual(authDialog.resetFulfilled({ email: 'a@b.c' }));
    const bad = harness({}, { resetPassword: jest.fn().mockRejectedValue(new ApiError(400, { email: ['Enter a valid email address.'] })) });
    await bad.run(resetFlow, authDialog.resetRequested({ email: 'x' }));
    expect(bad.dispatched).toContainEqual(authDialog.resetRejected({ email: 'Enter a valid email address.' }));
  });

  test('the search panel opens 100 ms after it is asked for', async () => {
    jest.useFakeTimers();
    try {
      const h = harness({ panels: { open: null, searchPending: true } });
      const done = h.run(searchOpenFlow);
      jest.advanceTimersByTime(99);
      expect(h.dispatched).toEqual([]);
      jest.advanceTimersByTime(1);
      await done;
      expect(h.dispatched).toEqual([panels.searchOpened()]);
    } finally {
      jest.useRealTimers();
    }
  });

  test('the auth check confirms the member and keeps their stores', async () => {
    writeItem(STORAGE_KEYS.appVersion, '1.0.0');
    writeItem(STORAGE_KEYS.profileId, 42);
    writeItem(STORAGE_KEYS.favourites, { 3: true });
    const { touchLocalSession } = await import('../../common/storage');
    touchLocalSession();
    const status = { id: 42, email: 'a@example.com', full_name: 'A', avatar_url: '/media/avatars/a.jpg?w=80&h=80&cmd=crop', last_updates: { favourites: null } };
    const h = harness({ session: { status: 'unknown', user: null, lastUpdates: {} } }, { authStatus: jest.fn().mockResolvedValue(status) });
    await h.run(authCheckFlow);
    expect(h.dispatched).toContainEqual(session.authChecked({ user: { id: 42, email: 'a@example.com', full_name: 'A', avatar_url: '/media/avatars/a.jpg?w=80&h=80&cmd=crop', is_staff: false }, lastUpdates: { favourites: null } }));
    expect(readItem(STORAGE_KEYS.favourites)).toEqual({ 3: true });
  });

  test('a visitor without the signed-in cookie starts anonymous: no request, and the stores are cleared', async () => {
    writeItem(STORAGE_KEYS.favourites, { 3: true });
    const authStatus = jest.fn();
    const h = harness({ session: { status: 'anonymous', user: null, lastUpdates: {} } }, { authStatus });
    await h.run(authCheckFlow);
    expect(authStatus).not.toHaveBeenCalled();
    expect(h.dispatched).toContainEqual(session.authCheckFailed());
    expect(readItem(STORAGE_KEYS.favourites)).toBeNull();
  });

  test('a failed auth check marks the visitor anonymous and clears the stores', async () => {
    writeItem(STORAGE_KEYS.favourites, { 3: true });
    const h = harness({ session: { status: 'unknown', user: null, lastUpdates: {} } }, { authStatus: jest.fn().mockRejectedValue(new ApiError(401, { detail: 'no' })) });
    await h.run(authCheckFlow);
    expect(h.dispatched).toContainEqual(session.authCheckFailed());
    expect(readItem(STORAGE_KEYS.favourites)).toBeNull();
  });

  test('a local session idle over 5 days clears the stores even for a member', async () => {
    writeItem(STORAGE_KEYS.appVersion, '1.0.0');
    writeItem(STORAGE_KEYS.profileId, 42);
    writeItem(STORAGE_KEYS.favourites, { 3: true });
    localStorage.setItem(STORAGE_KEYS.lastActive, '01-01-2020 10:00');
    const h = harness({ session: { status: 'unknown', user: null, lastUpdates: {} } }, { authStatus: jest.fn().mockResolvedValue({ id: 42, email: 'a', full_name: '', last_updates: {} }) });
    await h.run(authCheckFlow);
    expect(readItem(STORAGE_KEYS.favourites)).toBeNull();
  });

  test('logout clears the stores and leaves the navigation to the form it came from', async () => {
    writeItem(STORAGE_KEYS.todos, { 1: 1 });
    const h = harness();
    await h.run(logoutFlow);
    expect(localStorage.length).toBe(0);
    expect(h.context.navigate).not.toHaveBeenCalled();
  });
});
