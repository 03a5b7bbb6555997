/// <reference types="jest" />
import { act, fireEvent, within } from '@testing-library/react';
import { renderWithStore } from '../../common/test-utils';
import { placeholderSet } from '../placeholders';
import { setup, settle } from '../testing';
import { SaveControlPortals } from './SaveControlPortals';

// The island's one root: a control in each placeholder (through a portal), the server's login
// link replaced, new placeholders joining on a rescan and those taken out of the page leaving.

const flush = () => act(settle);

/** A placeholder as templates/partials/save-controls.njk prints it. */
function placeholder(type: string, id: number | string, name?: string): HTMLElement {
  const el = document.createElement('div');
  el.dataset.island = 'saves';
  el.className = `save-control save-control--${type}`;
  el.dataset.save = type;
  el.dataset.objectId = String(id);
  if (name) el.dataset.name = name;
  el.innerHTML = `<a class="save-control__login" href="/accounts/login?next=%2F" rel="nofollow">Log in to save or rate</a>`;
  return el;
}

describe('save controls through one root', () => {
  let page: HTMLElement;
  beforeEach(() => {
    localStorage.clear();
    page = document.createElement('main');
    document.body.append(page);
  });
  afterEach(() => page.remove());

  test('each placeholder gets its control in place of the login link; one that names none stays a link', async () => {
    const listing = placeholder('listing', 4, 'Pizzeria Libretto');
    const article = placeholder('article', 8);
    const bad = placeholder('listing', 'x');
    page.append(listing, article, bad);
    const set = placeholderSet(page);
    set.rescan();
    const { store, api } = setup({ kinds: ['favourites', 'todos', 'ratings', 'articleBookmarks'] });
    renderWithStore(<SaveControlPortals placeholders={set} />, store);
    await flush();

    expect(listing.querySelector('.save-control__login')).toBeNull();
    expect(listing.classList.contains('is-enhanced')).toBe(true);
    expect(listing.dataset.mounted).toBe('true');
    expect(within(listing).getByRole('group', { name: 'Your rating of Pizzeria Libretto' })).toBeTruthy();
    expect(article.querySelector('.save-control__login')).toBeNull();
    expect(bad.querySelector('.save-control__login')).not.toBeNull();
    expect(bad.classList.contains('is-enhanced')).toBe(false);

    // The control in the portal answers its click (React's events reach it in the placeholder).
    fireEvent.click(within(article).getByRole('button', { name: 'Bookmark' }));
    await flush();
    expect(api.create).toHaveBeenCalledWith('articleBookmarks', 8);
    expect(within(article).getByRole('button', { name: 'Bookmark' }).getAttribute('aria-pressed')).toBe('true');
  });

  test('a rescan mounts new placeholders and drops those taken out of the page; one that comes back gets its control again', async () => {
    const first = placeholder('listing-compact', 1);
    page.append(first);
    const set = placeholderSet(page);
    set.rescan();
    const { store } = setup();
    renderWithStore(<SaveControlPortals placeholders={set} />, store);
    await flush();
    const second = placeholder('listing-compact', 2);
    const third = placeholder('listing-compact', 1);
    page.append(second, third);
    first.remove();
    await act(async () => {
      set.rescan();
    });
    await flush();

    expect(within(second).getByRole('button', { name: 'Favourite' })).toBeTruthy();
    expect(within(third).getByRole('button', { name: 'Favourite' })).toBeTruthy();
    expect(first.querySelector('button')).toBeNull(); // unmounted with its placeholder gone
    expect(set.current().map((p) => p.el)).toEqual([second, third]);

    // Cards moved out and back (the listing search's map view and back): the control again.
    page.prepend(first);
    await act(async () => {
      set.rescan();
    });
    await flush();
    expect(within(first).getByRole('button', { name: 'Favourite' })).toBeTruthy();
    expect(first.querySelector('.save-control__login')).toBeNull();
  });

  test('a favourite in one card shows in another card of the same place', async () => {
    const a = placeholder('listing-compact', 5);
    const b = placeholder('listing', 5);
    page.append(a, b);
    const set = placeholderSet(page);
    set.rescan();
    const { store } = setup();
    renderWithStore(<SaveControlPortals placeholders={set} />, store);
    await flush();
    fireEvent.click(within(a).getByRole('button', { name: 'Favourite' }));
    await flush();
    expect(within(b).getByRole('button', { name: 'Favourite' }).getAttribute('aria-pressed')).toBe('true');
  });
});
