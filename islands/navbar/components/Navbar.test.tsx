/// <reference types="jest" />
import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithStore } from '../../common/test-utils';
import { requestLogin } from '../../common/auth-events';
import { announceProfileChange } from '../../common/profile-events';
import { ApiError } from '../../common/api';
import { createNavbarStore } from '../store';
import type { NavbarSagaContext } from '../sagas';
import { Navbar } from './Navbar';
import { PASSWORD_MISMATCH } from './SignupForm';

const flags = { listings: true, events: true, contests: true, videos: true, bestOf: true, photoChallenges: true, patioGuide: false, photoUpload: true, newsOnly: false };
const site = { name: 'The Toronto Guide', cityName: 'Toronto', flags };

function setup(user: { id: number; full_name: string; email: string; avatar_url?: string | null; is_staff?: boolean } | null = null, api: Partial<NavbarSagaContext['api']> = {}) {
  const context: NavbarSagaContext = {
    api: { login: jest.fn(), signup: jest.fn(), resetPassword: jest.fn(), appleLogin: jest.fn(), authStatus: jest.fn().mockResolvedValue({ ...user, last_updates: {} }), ...api } as NavbarSagaContext['api'],
    navigate: jest.fn(),
    reload: jest.fn(),
    location: () => ({ pathname: '/', search: '' }),
    appVersion: '1',
  };
  const store = createNavbarStore({ session: { status: user ? 'authenticated' : 'anonymous', user: user && { avatar_url: null, ...user }, lastUpdates: {} } }, context);
  const menus = { latestArticles: [{ name: 'x'.repeat(80), path: '/news/2026/01/x/' }], recentReviews: [], listingTypes: [{ name: 'Restaurants', path: '/restaurants/' }] };
  renderWithStore(<Navbar site={site} menus={menus} currentUrl="/news/" />, store);
  return { store, context };
}

// The saga's delay resolves a promise: let the microtasks run inside act.
const wait100 = () =>
  act(async () => {
    jest.advanceTimersByTime(100);
  });

describe('the navbar island', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('the page names nobody: with the signed-in cookie the auth check names the member, who is never asked to log in meanwhile', async () => {
    let answer: (v: unknown) => void = () => {};
    const authStatus = jest.fn(() => new Promise((resolve) => (answer = resolve)));
    const context: NavbarSagaContext = {
      api: { login: jest.fn(), signup: jest.fn(), resetPassword: jest.fn(), appleLogin: jest.fn(), authStatus } as unknown as NavbarSagaContext['api'],
      navigate: jest.fn(),
      reload: jest.fn(),
      location: () => ({ pathname: '/', search: '' }),
      appVersion: '1',
    };
    const store = createNavbarStore({ session: { status: 'unknown', user: null, lastUpdates: {} } }, context);
    renderWithStore(<Navbar site={site} currentUrl="/" />, store);
    expect(screen.getByRole('button', { name: 'Account' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Log in' })).toBeNull();
    expect(authStatus).toHaveBeenCalledTimes(1);
    await act(async () => answer({ id: 5, email: 'g@example.com', full_name: 'Grace Hopper', avatar_url: '/media/g.jpg?w=80&h=80&cmd=crop', calendar_sync: null, is_staff: false, last_updates: {} }));
    expect(screen.getByRole('button', { name: 'Grace Hopper' })).toBeTruthy();
    expect(document.querySelector('.navbar__avatar')?.getAttribute('src')).toBe('/media/g.jpg?w=80&h=80&cmd=crop');
  });

  test('the three panels exclude each other; search opens after 100 ms; Esc closes it', async () => {
    setup();
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByRole('region', { name: 'Log in' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.queryByRole('region', { name: 'Log in' })).toBeNull();
    expect(screen.queryByRole('search')).toBeNull();
    await wait100();
    expect(screen.getByLabelText('What cha looking for?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
    expect(screen.queryByRole('search')).toBeNull();
    expect(screen.getByRole('region', { name: 'Menu' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await wait100();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('search')).toBeNull();
  });

  test('an empty search does nothing', async () => {
    setup();
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await wait100();
    const form = screen.getByLabelText('What cha looking for?').closest('form')!;
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);
  });

  test('members see "Logged in as" and "Log out now"', () => {
    setup({ id: 1, full_name: 'Jane Jacobs', email: 'jane@example.com' });
    fireEvent.click(screen.getByRole('button', { name: 'Jane Jacobs' }));
    expect(screen.getByText(/Logged in as/).textContent).toBe('Logged in as Jane Jacobs');
    expect(screen.queryByRole('link', { name: 'Log out now' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Staff area' })).toBeNull();
  });

  test('staff also see a link to the staff area', () => {
    setup({ id: 1, full_name: 'Jane Jacobs', email: 'jane@example.com', is_staff: true });
    fireEvent.click(screen.getByRole('button', { name: 'Jane Jacobs' }));
    expect(screen.getByRole('link', { name: 'Staff area' }).getAttribute('href')).toBe('/staff/');
  });

  test("a member's face shows at 80x80 in the bar and the panel, and follows a change made on the dashboard", () => {
    const url = '/media/avatars/a.jpg?w=80&h=80&cmd=crop';
    setup({ id: 1, full_name: 'Jane Jacobs', email: 'jane@example.com', avatar_url: url });
    const button = screen.getByRole('button', { name: 'Jane Jacobs' });
    expect(button.querySelector('img')?.getAttribute('src')).toBe(url);
    fireEvent.click(button);
    const panelImg = document.querySelector('#nav-profile-panel img') as HTMLImageElement;
    expect([panelImg.getAttribute('src'), panelImg.width]).toEqual([url, 45]);
    const next = '/media/avatars/b.jpg?w=80&h=80&cmd=crop';
    act(() => announceProfileChange({ full_name: 'Jane J.', avatar_url: next }));
    expect(screen.getByRole('button', { name: 'Jane J.' }).querySelector('img')?.getAttribute('src')).toBe(next);
    act(() => announceProfileChange({ full_name: 'Jane J.', avatar_url: null }));
    expect(screen.getByRole('button', { name: 'Jane J.' }).querySelector('img')).toBeNull();
  });

  test('"Log out now" posts the CSRF token and next, and clears the stores as it goes', () => {
    document.cookie = `csrftoken=${'t'.repeat(43)}; path=/`;
    localStorage.setItem('profile.profileId', '1');
    setup({ id: 1, full_name: 'Jane Jacobs', email: 'jane@example.com' });
    fireEvent.click(screen.getByRole('button', { name: 'Jane Jacobs' }));
    const form = screen.getByRole('button', { name: 'Log out now' }).closest('form')!;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe('/profiles/logout');
    const fields = Object.fromEntries(new FormData(form).entries());
    expect(fields).toEqual({ csrfmiddlewaretoken: 't'.repeat(43), next: '/news/' });
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(submit);
    // The browser sends the form itself; by then the stores are clear.
    expect(submit.defaultPrevented).toBe(false);
    expect(localStorage.getItem('profile.profileId')).toBeNull();
  });

  test('a wrong password shows its message as "* message"', async () => {
    jest.useRealTimers();
    setup(null, { login: jest.fn().mockRejectedValue(new ApiError(400, { non_field_errors: ['Unable to log in with provided credentials.'] })) });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'a@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'nope' } });
    await act(async () => {
      fireEvent.submit(screen.getByLabelText('Email').closest('form')!);
    });
    expect((await screen.findByRole('alert')).textContent).toBe('* Unable to log in with provided credentials.');
  });

  test('sign-up checks that the two passwords match before asking the server', () => {
    const { context } = setup();
    act(() => requestLogin({ signup: true }));
    const dialog = screen.getByRole('dialog', { name: 'Sign up' });
    expect(dialog).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'a@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'maple-streetcar-42' } });
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'other' } });
    fireEvent.submit(screen.getByLabelText('Email').closest('form')!);
    expect(screen.getByRole('alert').textContent).toBe(`* ${PASSWORD_MISMATCH}`);
    expect(context.api.signup).not.toHaveBeenCalled();
  });

  test('a protected action opens the login dialog and is carried through login', async () => {
    jest.useRealTimers();
    const { context } = setup(null, { login: jest.fn().mockResolvedValue({ id: 5 }) });
    act(() => requestLogin({ pendingAction: { post_authenticate_action: 'add-favourite', object_id: 12 } }));
    const dialog = screen.getByRole('dialog', { name: 'Log in' });
    fireEvent.change(dialog.querySelector('input[name=email]')!, { target: { value: 'a@example.com' } });
    fireEvent.change(dialog.querySelector('input[name=password]')!, { target: { value: 'pw-pw-pw-pw' } });
    await act(async () => {
      fireEvent.submit(dialog.querySelector('form')!);
    });
    expect(context.api.login).toHaveBeenCalledWith({ email: 'a@example.com', password: 'pw-pw-pw-pw' }, { post_authenticate_action: 'add-favourite', object_id: 12 });
    expect(context.reload).toHaveBeenCalled();
  });

  test('the dialogs switch: login → reset shows the sent message', async () => {
    jest.useRealTimers();
    setup(null, { resetPassword: jest.fn().mockResolvedValue({}) });
    act(() => requestLogin());
    fireEvent.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    expect(screen.queryByRole('dialog', { name: 'Log in' })).toBeNull();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'a@example.com' } });
    await act(async () => {
      fireEvent.submit(screen.getByLabelText('Email').closest('form')!);
    });
    expect(screen.getByRole('status').textContent).toBe('An email has been sent to a@example.com. Click the link in the email to reset your password.');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  test('long article titles in the menu are truncated to 64 characters plus " ..."', () => {
    setup();
    expect(screen.getByRole('link', { name: `${'x'.repeat(64)} ...` })).toBeTruthy();
  });
});
