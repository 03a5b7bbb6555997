/// <reference types="jest" />
import { fireEvent, screen } from '@testing-library/react';
import { renderWithStore } from '../common/test-utils';
import { ageGateDecision, ageGateMaxAgeSeconds, legalAge } from '../../shared/age-gate';
import { AgeGate } from './components/AgeGate';
import { gate, gateSlice, initialGateState } from './slices/gate';
import { createAgeGateStore } from './store';

// The gate's rules (spec 2 §4, §9): open until accepted; decline goes to /; remember keeps
// the answer 30 days (else the browser session); a stored 'false' goes home; the province's
// age; Esc does not close it and the rest of the page is inert while it is open.

function setup(cookie?: string, age = 19) {
  document.body.innerHTML = '<header><a href="/">Home</a></header><main><p>Gated story</p></main><div id="gate"></div>';
  const root = document.getElementById('gate')!;
  const writeCookie = jest.fn();
  const navigate = jest.fn();
  const store = createAgeGateStore(age, { readCookie: (name) => (name === 'is_user_over_18' ? cookie : undefined), writeCookie, navigate });
  renderWithStore(<AgeGate root={root} />, store);
  return { store, writeCookie, navigate };
}

describe('age gate rules', () => {
  test('the cookie decides: true passes, false goes home, absent asks', () => {
    expect(ageGateDecision('true')).toBe('pass');
    expect(ageGateDecision('false')).toBe('home');
    expect(ageGateDecision(undefined)).toBe('ask');
    expect(ageGateDecision('yes')).toBe('ask');
  });

  test('the legal age by province: 19, 21 in Quebec, 18 in Alberta', () => {
    expect([legalAge('ON'), legalAge('qc'), legalAge('AB'), legalAge('BC')]).toEqual([19, 21, 18, 19]);
  });

  test('remember keeps the answer 30 days, otherwise the browser session', () => {
    expect(ageGateMaxAgeSeconds(true)).toBe(30 * 86400);
    expect(ageGateMaxAgeSeconds(false)).toBeUndefined();
  });

  test('it stays open until answered: accepting or declining only from open', () => {
    const reduce = gateSlice.reducer;
    const open = reduce(initialGateState(19), gate.checked('ask'));
    expect(open.status).toBe('open');
    expect(reduce(initialGateState(19), gate.accepted()).status).toBe('checking');
    expect(reduce(open, gate.accepted()).status).toBe('accepted');
    expect(reduce(reduce(open, gate.declined()), gate.accepted()).status).toBe('declined');
  });
});

describe('age gate dialog', () => {
  test('an unanswered reader sees the dialog with the province’s age, and the page behind is inert', () => {
    setup(undefined, 21);
    expect(screen.getByRole('dialog', { name: 'Are you 21 or older?' })).toBeTruthy();
    expect(document.querySelector('main')!.inert).toBe(true);
    expect(document.querySelector('header')!.inert).toBe(true);
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
  });

  test('Esc does not close it', () => {
    setup();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  test('accepting with remember stores true for 30 days, closes, and frees the page', () => {
    const h = setup();
    fireEvent.click(screen.getByLabelText('Remember me for 30 days'));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, I am 19 or older' }));
    expect(h.writeCookie).toHaveBeenCalledWith('is_user_over_18', 'true', { maxAgeSeconds: 30 * 86400 });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.querySelector('main')!.inert).toBe(false);
    expect(h.navigate).not.toHaveBeenCalled();
  });

  test('declining stores false for the session and goes to /', () => {
    const h = setup();
    fireEvent.click(screen.getByRole('button', { name: 'No, take me home' }));
    expect(h.writeCookie).toHaveBeenCalledWith('is_user_over_18', 'false', { maxAgeSeconds: undefined });
    expect(h.navigate).toHaveBeenCalledWith('/');
  });

  test('a reader who accepted earlier sees nothing; one who declined goes home', () => {
    setup('true');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.querySelector('main')!.inert).toBeFalsy();
    const declined = setup('false');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(declined.navigate).toHaveBeenCalledWith('/');
  });
});
