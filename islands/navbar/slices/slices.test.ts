/// <reference types="jest" />
import { authDialog, authDialogSlice, initialAuthDialogState } from './authDialog';
import { initialPanelsState, panels, panelsSlice } from './panels';

describe('panels slice', () => {
  const reduce = (actions: Parameters<typeof panelsSlice.reducer>[1][]) => actions.reduce(panelsSlice.reducer, initialPanelsState);

  test('opening one panel closes the others', () => {
    expect(reduce([panels.toggled('profile'), panels.toggled('menu')]).open).toBe('menu');
    const s = reduce([panels.toggled('profile'), panels.searchToggled()]);
    expect(s).toEqual({ open: null, searchPending: true });
    expect(reduce([panels.toggled('profile'), panels.searchToggled(), panels.searchOpened()]).open).toBe('search');
    expect(reduce([panels.searchToggled(), panels.searchOpened(), panels.toggled('profile')]).open).toBe('profile');
  });

  test('a panel toggles shut; a late search timer does nothing after another panel opened', () => {
    expect(reduce([panels.toggled('menu'), panels.toggled('menu')]).open).toBeNull();
    expect(reduce([panels.searchToggled(), panels.toggled('menu'), panels.searchOpened()]).open).toBe('menu');
  });
});

describe('authDialog slice', () => {
  const reduce = (actions: Parameters<typeof authDialogSlice.reducer>[1][]) => actions.reduce(authDialogSlice.reducer, initialAuthDialogState);

  test('dialogs exclude each other and switching clears the error', () => {
    const failed = reduce([authDialog.loginOpened(), authDialog.loginRequested({ email: 'a', password: 'b' }), authDialog.loginRejected({ non_field_errors: 'Bad.' })]);
    expect(failed).toMatchObject({ open: 'login', status: 'failed', errors: { non_field_errors: 'Bad.' } });
    const switched = authDialogSlice.reducer(failed, authDialog.signupOpened());
    expect(switched).toMatchObject({ open: 'signup', status: 'idle', errors: {} });
    expect(authDialogSlice.reducer(switched, authDialog.resetOpened()).open).toBe('reset');
    expect(authDialogSlice.reducer(switched, authDialog.closed())).toMatchObject({ open: null, errors: {} });
  });

  test('a protected action is remembered until the dialog is closed', () => {
    const pendingAction = { post_authenticate_action: 'add-favourite', object_id: 7 };
    const s = reduce([authDialog.loginOpened({ pendingAction, redirect: '/x/' })]);
    expect(s).toMatchObject({ open: 'login', pendingAction, redirect: '/x/' });
    expect(authDialogSlice.reducer(s, authDialog.closed()).pendingAction).toBeNull();
  });

  test('requested → fulfilled for login, sign-up and reset', () => {
    expect(reduce([authDialog.loginRequested({ email: 'a', password: 'b' })]).status).toBe('loading');
    expect(reduce([authDialog.loginRequested({ email: 'a', password: 'b' }), authDialog.loginFulfilled()])).toMatchObject({ status: 'succeeded', loginSuccessful: true });
    expect(reduce([authDialog.signupRequested({ email: 'a', password: 'b' }), authDialog.signupFulfilled()]).loginSuccessful).toBe(true);
    expect(reduce([authDialog.resetOpened(), authDialog.resetRequested({ email: 'a@b.c' }), authDialog.resetFulfilled({ email: 'a@b.c' })])).toMatchObject({ resetPasswordSuccessful: true, resetEmail: 'a@b.c' });
  });
});
