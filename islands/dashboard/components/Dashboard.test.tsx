/// <reference types="jest" />
import '../../common/test-polyfills';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithStore } from '../../common/test-utils';
import { DashboardApp } from '../App';
import { createDashboardStore } from '../store';
import { initialProfileState } from '../slices/profile';
import { counts, fakeApi, favourite, page, pageLoadedBy, profile, todo } from '../testing';
import type { FeatureFlags } from '../../../shared/constants';
import { ACCOUNT_DELETE_PATH, MEMBER_EXPORT_CONTENTS, MEMBER_EXPORT_PATH } from '../../../shared/member-data';
import { rememberScroll, savedScroll } from '../navigation';

const FLAGS: FeatureFlags = { listings: true, events: true, contests: true, videos: true, bestOf: true, photoChallenges: true, patioGuide: true, photoUpload: true, newsOnly: false };

function renderDashboard(hash: string, opts: { api?: ReturnType<typeof fakeApi>; flags?: Partial<FeatureFlags>; withCounts?: boolean } = {}) {
  window.location.hash = hash;
  const api = opts.api ?? fakeApi();
  const store = createDashboardStore({ profile: { ...initialProfileState, data: profile() }, counts: opts.withCounts === false ? null : counts({ favourite_count: 2, bookmark_count: 1 }) }, { api, forgetCache: jest.fn() });
  const settings = { flags: { ...FLAGS, ...opts.flags }, calendarEnabled: true, iosAppUrl: 'https://apps.apple.com/app' };
  return { api, ...renderWithStore(<DashboardApp store={store} settings={settings} />, store) };
}

describe('the dashboard island', () => {
  test('scroll history: the browser clamping a short page is not recorded, and a refresh keeps the last position', async () => {
    // jsdom has no layout: the page's height and the scroll position are played by hand.
    let pageHeight = 0;
    const root = document.documentElement;
    const heightBefore = Object.getOwnPropertyDescriptor(root, 'scrollHeight');
    Object.defineProperty(root, 'scrollHeight', { configurable: true, get: () => pageHeight });
    const scrollToBefore = window.scrollTo;
    const scrollTo = (y: number) => {
      Object.defineProperty(window, 'scrollY', { configurable: true, value: y });
      window.dispatchEvent(new Event('scroll'));
    };
    const scrolls: number[] = [];
    window.scrollTo = ((_x: number, y: number) => {
      scrolls.push(y);
      scrollTo(y);
    }) as typeof window.scrollTo;
    const unload = pageLoadedBy('reload');
    try {
      scrollTo(0);
      rememberScroll('/favourites/', 900);
      renderDashboard('#/favourites/');
      // While the list is short the browser clamps: a scroll event the member did not make.
      act(() => scrollTo(120));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(savedScroll('/favourites/')).toBe(900);
      // The content arrives: back to where the member was.
      pageHeight = 3000;
      await waitFor(() => expect(scrolls).toContain(900));
      // The member scrolls on and refreshes before the 150 ms debounce: still kept.
      act(() => scrollTo(1300));
      window.dispatchEvent(new Event('pagehide'));
      expect(savedScroll('/favourites/')).toBe(1300);
      // Off to another route: its short page clamps the scroll before this route's cleanup
      // runs; that scroll is not this route's position.
      act(() => {
        window.location.hash = '#/photos/';
        scrollTo(40);
      });
      await screen.findByRole('heading', { name: 'Photos' });
      expect(savedScroll('/favourites/')).toBe(1300);
    } finally {
      unload();
      window.scrollTo = scrollToBefore;
      if (heightBefore) Object.defineProperty(root, 'scrollHeight', heightBefore);
      else delete (root as { scrollHeight?: number }).scrollHeight;
    }
  });

  test('Your Data tells what the download holds, links the ZIP and the account deletion', async () => {
    renderDashboard('#/your-data/');
    const download = await screen.findByRole('link', { name: 'Download my data' });
    expect(download.getAttribute('href')).toBe(MEMBER_EXPORT_PATH);
    expect(download.hasAttribute('download')).toBe(true);
    for (const item of MEMBER_EXPORT_CONTENTS) expect(screen.getByText(item)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Delete my account' }).getAttribute('href')).toBe(ACCOUNT_DELETE_PATH);
  });

  test('/ goes to /home/; the menu has the spec labels, filtered by flags, and marks the current one', async () => {
    renderDashboard('#/');
    await screen.findByText(/Hi there,|Welcome back,|What's up,/);
    expect(window.location.hash).toBe('#/home/');
    const menu = screen.getByRole('navigation', { name: 'Dashboard' });
    expect(within(menu).getAllByRole('link').map((a) => a.textContent)).toEqual(['Dashboard', 'Email Newsletters', 'Favourites', 'To-Do List', 'Saved Articles', 'Saved Videos', 'Events', 'Rated Places', 'Photos', 'My calendar feeds', 'Your Data']);
    expect(within(menu).getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');
  });

  test('without listings or videos those items and boxes are gone; /_=_ lands on home', async () => {
    renderDashboard('#/_=_', { flags: { listings: false, videos: false } });
    await screen.findByText('Saved Article', { selector: '.dash-count__label' });
    const menu = screen.getByRole('navigation', { name: 'Dashboard' });
    expect(within(menu).getAllByRole('link').map((a) => a.textContent)).toEqual(['Dashboard', 'Email Newsletters', 'Saved Articles', 'Events', 'My calendar feeds', 'Your Data']);
    expect(screen.getByText('No Saved Events')).toBeTruthy();
  });

  test('count boxes pluralise, say No … at 0, and show a placeholder until counts arrive', async () => {
    renderDashboard('#/home/');
    expect(await screen.findByText('Favourites', { selector: '.dash-count__label' })).toBeTruthy();
    expect(screen.getByText('Saved Article', { selector: '.dash-count__label' })).toBeTruthy();
    expect(screen.getByText('No To-Dos')).toBeTruthy();
    renderDashboard('#/home/', { withCounts: false });
    expect(screen.getByText('Loading your counts…')).toBeTruthy();
  });

  test('the name saves with Enter, cancels with Esc, counts characters and needs a change', async () => {
    const { api } = renderDashboard('#/home/');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit name' }));
    const input = screen.getByLabelText('Your name');
    expect(screen.getByText('38 characters remaining')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByLabelText('Your name')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Edit name' }));
    fireEvent.change(screen.getByLabelText('Your name'), { target: { value: 'Anne of Green Gables' } });
    await act(async () => {
      fireEvent.submit(screen.getByLabelText('Your name').closest('form')!);
    });
    expect(api.patchProfile).toHaveBeenCalledWith({ full_name: 'Anne of Green Gables' });
    expect(await screen.findByText('Anne of Green Gables')).toBeTruthy();
  });

  test('mismatched passwords are refused before any request', async () => {
    const { api } = renderDashboard('#/home/');
    fireEvent.click(await screen.findByRole('button', { name: 'Change password' }));
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'old-password-1' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'new-password-1' } });
    fireEvent.change(screen.getByLabelText('Repeat new password'), { target: { value: 'new-password-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByText("* The two password fields didn't match.")).toBeTruthy();
    expect(api.changePassword).not.toHaveBeenCalled();
  });

  test('a favourite is deleted only through the confirmation', async () => {
    const api = fakeApi({ favourites: jest.fn(async () => page([favourite(1), favourite(2)])) });
    renderDashboard('#/favourites/', { api });
    expect(await screen.findByText('2 Favourites')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete Place 101' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(api.deleteFavourite).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Delete Place 101' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Yes, delete this favourite' }));
    });
    expect(api.deleteFavourite).toHaveBeenCalledWith(1);
    expect(await screen.findByText('1 Favourite')).toBeTruthy();
    expect(screen.queryByText('Place 101')).toBeNull();
  });

  test('to-dos: empty text, then completed ones under "N Completed To-Do" with Rate them:', async () => {
    renderDashboard('#/todos/');
    expect(await screen.findByText("Build a To-Do List of all the places you've been meaning to check out.")).toBeTruthy();
  });

  test('completed to-dos show their title and the confirm flow of the stars', async () => {
    const api = fakeApi({ todos: jest.fn(async (q: { completed: number }) => (q.completed ? page([todo(9, true)]) : page([todo(1)]))) });
    renderDashboard('#/todos/', { api });
    expect(await screen.findByText('1 Completed To-Do')).toBeTruthy();
    expect(screen.getByText('Rate them:')).toBeTruthy();
    expect(screen.getByLabelText('Mark as completed')).toBeTruthy();
    fireEvent.click(screen.getAllByLabelText('3 stars')[0]);
    expect(screen.getByText('Confirm 3 star rating:')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByText('Confirm 3 star rating:')).toBeNull();
  });

  test('saved articles: sort tabs reload with the ordering; the empty text', async () => {
    const api = fakeApi();
    renderDashboard('#/articles/', { api });
    expect(await screen.findByText('Find something interesting? Save it for later.')).toBeTruthy();
    expect(api.articleBookmarks).toHaveBeenCalledWith({ offset: 0, limit: 15, ordering: '-date_created' });
  });

  test('events show the calendar settings when the calendar is configured', async () => {
    const { api } = renderDashboard('#/events/');
    expect(await screen.findByText('Automatically add saved events to your Google Calendar')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByLabelText('Yes'));
    });
    expect(api.putCalendarChoice).toHaveBeenCalledWith({ id: 7, email: 'anne@example.com', sync_bookmarked_events_to_google_calendar: true });
  });

  test('newsletter boxes follow the flags and save on change', async () => {
    const { api } = renderDashboard('#/newsletter/', { flags: { contests: false } });
    expect(await screen.findByText('Top Stories')).toBeTruthy();
    expect(screen.queryByText('Contests')).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByLabelText(/Travel/));
    });
    expect(api.patchProfile).toHaveBeenCalledWith({ settings_receive_newsletter_travel: true });
  });
});
