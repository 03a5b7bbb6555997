/// <reference types="jest" />
import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithStore } from '../../common/test-utils';
import { ApiError } from '../../common/api';
import { writeCachedMap } from '../cache';
import { fakeApi, setup, settle } from '../testing';
import { SaveControl } from './SaveControl';
import { TIMINGS_MS } from '../../../shared/constants';

const flush = () => act(settle);

describe('save controls', () => {
  beforeEach(() => localStorage.clear());

  test('favourite and to-do toggles show their state in aria-pressed', async () => {
    writeCachedMap('todos', { 4: 41 }, null);
    const { store, api } = setup();
    renderWithStore(<SaveControl type="listing" objectId={4} name="Pizzeria Libretto" />, store);
    await flush();
    const fav = screen.getByRole('button', { name: 'Favourite' });
    expect(fav.getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByRole('button', { name: 'To-do' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(fav);
    expect(fav.getAttribute('aria-pressed')).toBe('true'); // optimistic
    await flush();
    expect(api.create).toHaveBeenCalledWith('favourites', 4);
    expect(fav.getAttribute('aria-pressed')).toBe('true');
  });

  test('turning a toggle on animates its icon for 1200 ms; a state from the server or turning it off does not', async () => {
    jest.useFakeTimers();
    try {
      writeCachedMap('todos', { 4: 41 }, null);
      const { store } = setup();
      renderWithStore(<SaveControl type="listing" objectId={4} name="Pizzeria Libretto" />, store);
      await act(() => jest.advanceTimersByTimeAsync(0));
      const icon = (name: string) => screen.getByRole('button', { name }).querySelector('.save-toggle__icon')!;
      expect(icon('To-do').className).not.toContain('is-animating'); // saved before: no animation on load

      fireEvent.click(screen.getByRole('button', { name: 'Favourite' }));
      await act(() => jest.advanceTimersByTimeAsync(0));
      expect(icon('Favourite').className).toContain('is-animating');
      expect((icon('Favourite') as HTMLElement).style.animationDuration).toBe(`${TIMINGS_MS.iconAnimation}ms`);
      await act(() => jest.advanceTimersByTimeAsync(TIMINGS_MS.iconAnimation - 10));
      expect(icon('Favourite').className).toContain('is-animating');
      await act(() => jest.advanceTimersByTimeAsync(10));
      expect(icon('Favourite').className).not.toContain('is-animating');

      fireEvent.click(screen.getByRole('button', { name: 'To-do' })); // turned off
      await act(() => jest.advanceTimersByTimeAsync(0));
      expect(screen.getByRole('button', { name: 'To-do' }).getAttribute('aria-pressed')).toBe('false');
      expect(icon('To-do').className).not.toContain('is-animating');
    } finally {
      jest.useRealTimers();
    }
  });

  test('a failed toggle quietly goes back', async () => {
    const { store } = setup({}, fakeApi({ create: jest.fn().mockRejectedValue(new ApiError(500, {})) }));
    renderWithStore(<SaveControl type="article" objectId={8} />, store);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Bookmark' }));
    await flush();
    expect(screen.getByRole('button', { name: 'Bookmark' }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test('rating: confirm or cancel, then thanks for 1.6 s', async () => {
    jest.useFakeTimers();
    try {
      writeCachedMap('ratings', { 4: { id: 40, rating: 2 } }, null);
      const { store, api } = setup();
      renderWithStore(<SaveControl type="listing" objectId={4} name="Pizzeria Libretto" />, store);
      await act(() => jest.advanceTimersByTimeAsync(0));
      expect(screen.getByRole('group', { name: 'Your rating of Pizzeria Libretto' })).toBeTruthy();
      expect(screen.getByRole('button', { name: '2 stars' }).getAttribute('aria-pressed')).toBe('true');

      fireEvent.click(screen.getByRole('button', { name: '5 stars' }));
      expect(screen.getByText('Edit to 5 star rating:')).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByText('Edit to 5 star rating:')).toBeNull();
      expect(screen.getByRole('button', { name: '2 stars' }).getAttribute('aria-pressed')).toBe('true');

      fireEvent.click(screen.getByRole('button', { name: '4 stars' }));
      fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
      await act(() => jest.advanceTimersByTimeAsync(0));
      expect(api.updateRating).toHaveBeenCalledWith(40, 4);
      expect(screen.getByText('Thanks for rating!')).toBeTruthy();
      expect(screen.getByRole('button', { name: '4 stars' }).getAttribute('aria-pressed')).toBe('true');
      await act(() => jest.advanceTimersByTimeAsync(1600));
      expect(screen.queryByText('Thanks for rating!')).toBeNull();
    } finally {
      jest.useRealTimers();
    }
  });

  test('a first rating asks "Confirm N star rating:"', async () => {
    const { store } = setup();
    renderWithStore(<SaveControl type="listing-compact" objectId={5} />, store);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: '3 stars' }));
    expect(screen.getByText('Confirm 3 star rating:')).toBeTruthy();
  });

  test('a guest star or toggle opens the login dialog through the navbar', async () => {
    const { store, context } = setup({ member: null });
    renderWithStore(<SaveControl type="listing" objectId={5} />, store);
    fireEvent.click(screen.getByRole('button', { name: '4 stars' }));
    fireEvent.click(screen.getByRole('button', { name: 'To-do' }));
    await flush();
    expect(context.requestLogin).toHaveBeenCalledWith({ pendingAction: { post_authenticate_action: 'add-rating', object_id: 5, rating: 4 } });
    expect(context.requestLogin).toHaveBeenCalledWith({ pendingAction: { post_authenticate_action: 'add-todo', object_id: 5 } });
    expect(screen.queryByText(/star rating:/)).toBeNull();
  });

  test("event: 'Add to my Events', the calendar question, then 'Saved'", async () => {
    const { store, api } = setup({ kinds: ['eventBookmarks'] });
    renderWithStore(<SaveControl type="event" objectId={12} />, store);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Add to my Events' }));
    await flush();
    const dialog = screen.getByRole('dialog', { name: 'Save to your Google Calendar?' });
    fireEvent.click(screen.getByRole('button', { name: 'No' }));
    await flush();
    expect(dialog.isConnected).toBe(false);
    expect(api.setCalendarSync).toHaveBeenCalledWith({ id: 7, email: 'saver@example.com' }, false);
    expect(api.saveEvent).toHaveBeenCalledWith(12, false);
    expect(screen.getByRole('button', { name: 'Saved' })).toBeTruthy();
  });

  test('video bookmark toggles', async () => {
    const { store, api } = setup({ kinds: ['videoBookmarks'] });
    renderWithStore(<SaveControl type="video" objectId={3} />, store);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Save video' }));
    await flush();
    expect(api.create).toHaveBeenCalledWith('videoBookmarks', 3);
  });
});
