/// <reference types="jest" />
import { fireEvent, screen } from '@testing-library/react';
import { renderWithStore } from '../common/test-utils';
import type { Page, PhotoDTO } from '../../shared/dto';
import type { PhotoViewerState, ViewerPhoto } from '../../shared/photo-viewer';
import { PhotoThumbs } from './components/PhotoThumbs';
import type { ViewerHistory, ViewerHistoryState } from './history';
import { selectActivePhoto, selectPosition, viewer } from './slice';
import { createPhotoViewerStore } from './store';
import { swipeTarget } from './swipe';

// The viewer's state rules (spec 2 §2 "Photo viewer"): 'N of M', no previous on the first and
// no next on the last, no moving past either end, the share path pushed on open and replaced
// on each move, the closed path on close, Back and Forward, and the API pages past the
// printed ones.

const photo = (id: number, n: number): ViewerPhoto => ({
  id,
  share_path: `/cafes/pilot-${1}/photos/${id}/`,
  thumb_url: `/media/p${id}.jpg?w=340&h=340&cmd=crop`,
  image_url: `/media/p${id}.jpg?w=1080&cmd=fit`,
  width: 1200,
  height: 800,
  alt: `Photo ${n} of Pilot`,
  title: '',
  description: '',
  credit: null,
  creation_date: '2026-01-01T00:00:00.000Z',
});

const dto = (id: number): PhotoDTO => ({
  id,
  prism_image_url: `http://x/media/p${id}.jpg`,
  description: '',
  title: `Cup ${id}`,
  listing: null,
  creation_date: '2026-01-01T00:00:00.000Z',
  share_path: `/cafes/pilot-1/photos/${id}/`,
  share_url: `http://x/cafes/pilot-1/photos/${id}/`,
  profile: { full_name: 'Avery', avatar_url: null },
  instagram_user: null,
});

/** 30 photos; the page printed the first 3 (ids 100, 101, 102). */
function init(over: Partial<PhotoViewerState> = {}): PhotoViewerState {
  return { listing: { id: 1, name: 'Pilot' }, photos: [photo(100, 1), photo(101, 2), photo(102, 3)], offset: 0, count: 30, pageSize: 24, layout: 'strip', ...over };
}

function fakeHistory(start = '/cafes/pilot-1/') {
  const entries: Array<{ path: string; state: ViewerHistoryState | null }> = [{ path: start, state: null }];
  let at = 0;
  let onPop: ((s: ViewerHistoryState | null) => void) | null = null;
  const h: ViewerHistory & { entries: typeof entries; pop(to: number): void } = {
    entries,
    push: jest.fn((path, state) => {
      entries.splice(at + 1, entries.length, { path, state });
      at += 1;
    }),
    replace: jest.fn((path, state) => {
      entries[at] = { path, state };
    }),
    back: jest.fn(() => h.pop(at - 1)),
    current: () => entries[at].state,
    location: () => entries[at].path,
    listen: (cb) => {
      onPop = cb;
      return () => (onPop = null);
    },
    pop(to: number) {
      at = to;
      onPop?.(entries[at].state);
    },
  };
  return h;
}

function setup(over: Partial<PhotoViewerState> = {}, pages: Record<number, number[]> = { 0: range(100, 24), 24: range(124, 6) }) {
  const history = fakeHistory();
  const api = { listingPhotos: jest.fn((_listing: number, offset: number) => Promise.resolve<Page<PhotoDTO>>({ count: 30, next: null, previous: null, results: (pages[offset] ?? []).map(dto) })) };
  const store = createPhotoViewerStore(init(over), { api, history });
  return { store, history, api };
}

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('photo viewer state', () => {
  test("opening pushes the photo's share path; 'N of M'; no previous on the first photo", async () => {
    const { store, history } = setup();
    store.dispatch(viewer.opened({ index: 0, closedPath: '/cafes/pilot-1/' }));
    await settle();
    expect(history.entries.map((e) => e.path)).toEqual(['/cafes/pilot-1/', '/cafes/pilot-1/photos/100/']);
    expect(selectPosition(store.getState())).toEqual({ label: '1 of 30', hasPrevious: false, hasNext: true });
    store.dispatch(viewer.moved(-1));
    expect(store.getState().viewer.activePhotoIndex).toBe(0);
  });

  test('moving replaces the share path (one history entry); closing goes back to the closed path', async () => {
    const { store, history } = setup();
    store.dispatch(viewer.opened({ index: 1, closedPath: '/cafes/pilot-1/' }));
    store.dispatch(viewer.moved(2));
    await settle();
    expect(history.entries.map((e) => e.path)).toEqual(['/cafes/pilot-1/', '/cafes/pilot-1/photos/102/']);
    expect(history.current()).toEqual({ photoViewer: 2 });
    store.dispatch(viewer.closed({ via: 'ui' }));
    await settle();
    expect(history.back).toHaveBeenCalledTimes(1);
    expect(history.location()).toBe('/cafes/pilot-1/');
    expect(store.getState().viewer.activePhotoIndex).toBeNull();
  });

  test('photos past the printed ones are read from the API by page; the share path follows once known', async () => {
    const { store, history, api } = setup();
    store.dispatch(viewer.opened({ index: 2, closedPath: '/cafes/pilot-1/' }));
    await settle();
    // The neighbour (index 3) is not printed: page 0 of the API is read.
    expect(api.listingPhotos).toHaveBeenCalledWith(1, 0, 24);
    store.dispatch(viewer.moved(3));
    await settle();
    expect(selectActivePhoto(store.getState())?.id).toBe(103);
    expect(history.location()).toBe('/cafes/pilot-1/photos/103/');
    store.dispatch(viewer.moved(23));
    await settle();
    expect(api.listingPhotos).toHaveBeenLastCalledWith(1, 24, 24);
    store.dispatch(viewer.moved(29));
    await settle();
    expect(selectPosition(store.getState())).toEqual({ label: '30 of 30', hasPrevious: true, hasNext: false });
    expect(selectActivePhoto(store.getState())).toMatchObject({ id: 129, title: 'Cup 129', credit: 'Avery', alt: 'Cup 129' });
    store.dispatch(viewer.moved(30)); // nothing after the last
    expect(store.getState().viewer.activePhotoIndex).toBe(29);
    expect(api.listingPhotos).toHaveBeenCalledTimes(2);
  });

  test('a failed page is kept as failed and read again on the next move', async () => {
    const { store, api } = setup();
    api.listingPhotos.mockRejectedValueOnce(new Error('offline'));
    store.dispatch(viewer.opened({ index: 2, closedPath: '/' }));
    await settle();
    expect(store.getState().viewer.failedPages).toEqual({ 0: true });
    store.dispatch(viewer.moved(1));
    store.dispatch(viewer.moved(2));
    await settle();
    expect(store.getState().viewer.failedPages).toEqual({});
    expect(store.getState().viewer.photos[3]?.id).toBe(103);
  });

  test('Back closes without another Back; Forward opens the photo again', async () => {
    const { store, history } = setup();
    store.dispatch(viewer.opened({ index: 1, closedPath: '/cafes/pilot-1/' }));
    await settle();
    history.pop(0);
    await settle();
    expect(store.getState().viewer.activePhotoIndex).toBeNull();
    expect(history.back).not.toHaveBeenCalled();
    history.pop(1);
    await settle();
    expect(store.getState().viewer.activePhotoIndex).toBe(1);
    expect(history.push).toHaveBeenCalledTimes(1);
  });

  test('closing when the viewer did not push (opened by Forward after a reload) replaces the address', async () => {
    const { store, history } = setup();
    store.dispatch(viewer.opened({ index: 0, closedPath: '/cafes/pilot-1/photos/?page=2', via: 'history' }));
    store.dispatch(viewer.closed({ via: 'ui' }));
    await settle();
    expect(history.back).not.toHaveBeenCalled();
    expect(history.replace).toHaveBeenCalledWith('/cafes/pilot-1/photos/?page=2', null);
  });

  test('an index outside the list opens nothing', () => {
    const { store } = setup();
    store.dispatch(viewer.opened({ index: 30, closedPath: '/' }));
    expect(store.getState().viewer.activePhotoIndex).toBeNull();
  });
});

describe('photo thumbnails', () => {
  test('a click opens the viewer at the photo; a modified click is left to the browser', async () => {
    const { store } = setup({ offset: 24, photos: [photo(124, 25), photo(125, 26)], layout: 'grid' });
    renderWithStore(<PhotoThumbs />, store);
    expect(screen.getByRole('list').className).toBe('photo-grid');
    const second = screen.getByRole('link', { name: 'Photo 26 of Pilot' });
    expect(second.getAttribute('href')).toBe('/cafes/pilot-1/photos/125/');
    fireEvent.click(second, { ctrlKey: true });
    expect(store.getState().viewer.activePhotoIndex).toBeNull();
    fireEvent.click(second);
    expect(store.getState().viewer.activePhotoIndex).toBe(25);
    expect(selectPosition(store.getState())?.label).toBe('26 of 30');
  });
});

describe('swipeTarget (spec 2 §2: swipe right goes next, swipe left previous)', () => {
  test('a rightward swipe goes to the next photo, a leftward one to the previous', () => {
    expect(swipeTarget(120, 10, 2, 5)).toBe(3);
    expect(swipeTarget(-120, 10, 2, 5)).toBe(1);
  });
  test('short or mostly vertical moves are not swipes; neither end wraps', () => {
    expect(swipeTarget(30, 0, 2, 5)).toBeNull();
    expect(swipeTarget(80, 120, 2, 5)).toBeNull();
    expect(swipeTarget(120, 0, 4, 5)).toBeNull();
    expect(swipeTarget(-120, 0, 0, 5)).toBeNull();
  });
});
