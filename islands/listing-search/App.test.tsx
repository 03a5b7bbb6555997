/// <reference types="jest" />
import { act, fireEvent, screen, within } from '@testing-library/react';
import { renderWithStore } from '../common/test-utils';
import { App } from './components/App';
import { appProps, fakeContext, page, range, settle, setup } from './testing';
import { loadMapEngine as realLoadMapEngine } from '../common/maps/loader';
import type { MapEngine, MapHandle } from '../common/maps/types';

// maplibre cannot run in jsdom: the map module's loader is mocked with a fake engine.
const handle: jest.Mocked<MapHandle> = {
  setPoints: jest.fn(),
  bounds: jest.fn().mockReturnValue([-79.41, 43.64, -79.39, 43.67]),
  onMoveEnd: jest.fn(),
  whenStill: jest.fn().mockResolvedValue(undefined),
  resize: jest.fn(),
  destroy: jest.fn(),
};
const engine: MapEngine = { create: jest.fn().mockResolvedValue(handle) };
jest.mock('../common/maps/loader', () => ({ loadMapEngine: jest.fn() }));
const loadMapEngine = realLoadMapEngine as jest.Mock;

describe('listing search panel', () => {
  beforeEach(() => jest.clearAllMocks());

  test('keeps the printed cards as they are (the same nodes, not rendered again); a new search replaces them with its own, placeholders included; the saves island rescans', async () => {
    const rescan = jest.fn();
    document.addEventListener('saves:rescan', rescan);
    const s = setup();
    const props = appProps();
    renderWithStore(<App {...props} />, s.store);
    expect(screen.getByRole('heading', { name: '100 found' })).toBeTruthy();
    const cards = () => screen.getAllByRole('listitem').filter((li) => li.classList.contains('place-card'));
    expect(cards()).toHaveLength(40);
    expect(cards().every((li, i) => li === props.printedCards[i])).toBe(true);
    expect(cards()[0].closest('.listing-search')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Show more (40 of 100)' })).toBeTruthy();
    expect(rescan).toHaveBeenCalled();
    expect(s.ctx.api.search).not.toHaveBeenCalled();

    rescan.mockClear();
    await act(async () => {
      fireEvent.focus(screen.getByLabelText('Subway stop'));
      fireEvent.change(screen.getByLabelText('Subway stop'), { target: { value: '3' } });
      await settle();
    });
    expect(screen.getByRole('heading', { name: '2 found' })).toBeTruthy();
    expect(cards()).toHaveLength(2);
    expect(props.printedCards.some((li) => li.isConnected)).toBe(false);
    const placeholder = document.querySelector('[data-island="saves"][data-object-id="501"]')!;
    expect(placeholder.getAttribute('data-save')).toBe('listing-compact');
    expect(placeholder.querySelector('a')!.getAttribute('href')).toBe('/accounts/login?next=%2Frestaurants%2F');
    expect(screen.getByRole('link', { name: /^Place 501 Restaurants/ }).getAttribute('href')).toBe('/restaurants/place-501-501/');
    expect(rescan).toHaveBeenCalled();
    document.removeEventListener('saves:rescan', rescan);
  });

  test('page two comes after the printed cards, rendered by the island', async () => {
    const ctx = fakeContext();
    ctx.api.search.mockResolvedValue(page(range(41, 40), 100));
    const s = setup({}, ctx);
    const props = appProps();
    renderWithStore(<App {...props} />, s.store);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Show more (40 of 100)' }));
      await settle();
    });
    const cards = screen.getAllByRole('listitem').filter((li) => li.classList.contains('place-card'));
    expect(cards).toHaveLength(80);
    expect(cards.slice(0, 40).every((li, i) => li === props.printedCards[i])).toBe(true);
    expect(within(cards[40]).getByRole('link', { name: /^Place 41 Restaurants/ })).toBeTruthy();
  });

  test('filters are disabled while fetching; features show N Features Selected; the messages of spec 2 §8', async () => {
    const ctx = fakeContext();
    let resolve!: (v: unknown) => void;
    ctx.api.search.mockImplementationOnce(() => new Promise((r) => (resolve = r)));
    const s = setup({}, ctx);
    renderWithStore(<App {...appProps()} />, s.store);
    fireEvent.focus(screen.getByLabelText('Subway stop'));
    fireEvent.change(screen.getByLabelText('Subway stop'), { target: { value: '3' } });
    expect((screen.getByLabelText('Neighbourhood') as HTMLSelectElement).disabled).toBe(true);
    // The busy state is drawn in the tap's own frame (the change's render is synchronous).
    expect(document.querySelector('.hub-results')!.getAttribute('aria-busy')).toBe('true');
    expect(document.querySelector('.place-grid')!.classList.contains('is-fetching')).toBe(true);
    await act(async () => {
      resolve(page([7, 8, 9], 3));
      await settle();
    });
    expect((screen.getByLabelText('Neighbourhood') as HTMLSelectElement).disabled).toBe(false);
    expect(screen.getByRole('heading', { name: '3 found' })).toBeTruthy();
    expect(screen.getByText('Want more results? Try adjusting your criteria with the dropdowns above.')).toBeTruthy();

    ctx.api.search.mockResolvedValue(page([], 0));
    fireEvent.click(screen.getByRole('button', { name: 'Features' }));
    await act(async () => {
      fireEvent.click(screen.getByLabelText('Patio'));
      await settle();
    });
    await act(async () => {
      fireEvent.click(screen.getByLabelText('Wheelchair accessible'));
      await settle();
    });
    expect(screen.getByRole('button', { name: '2 Features Selected' })).toBeTruthy();
    expect(ctx.api.search.mock.lastCall[0]).toMatchObject({ features: 'patio,wheelchair-accessible' });
    expect(screen.getByRole('heading', { name: '0 found' })).toBeTruthy();
    expect(screen.getByText('Sorry, there are no results for Restaurants in this area. Please try adjusting your search criteria with dropdowns above.')).toBeTruthy();
  });

  test('sort tabs re-search; the map view draws markers and refreshes in the area once the map is still', async () => {
    loadMapEngine.mockResolvedValue(engine);
    let moved: () => void = () => {};
    handle.onMoveEnd.mockImplementation((cb) => ((moved = cb), () => {}));
    const s = setup();
    renderWithStore(<App {...appProps()} />, s.store);
    await act(async () => {
      fireEvent.click(screen.getByRole('link', { name: 'RATING' }));
      await settle();
    });
    expect(s.ctx.api.search.mock.lastCall[0]).toMatchObject({ ordering: '-rating', offset: 0 });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Map' }));
      await settle();
    });
    expect(engine.create).toHaveBeenCalledTimes(1);
    const opts = (engine.create as jest.Mock).mock.calls[0][1];
    expect(opts).toMatchObject({ cluster: true, popupMaxWidth: 300 });
    expect(opts.points[0].popupHtml).toContain('View Review');
    expect(screen.queryByRole('button', { name: 'Refresh results in this area' })).toBeNull();
    act(() => moved());
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Refresh results in this area' }));
      await settle();
    });
    expect(handle.whenStill).toHaveBeenCalled();
    expect(s.ctx.api.search.mock.lastCall[0]).toMatchObject({ bbox: '-79.41000,43.64000,-79.39000,43.67000', offset: 0 });
  });

  test('without WebGL the map view shows a readable list instead, of the printed cards fetched as data', async () => {
    loadMapEngine.mockRejectedValue(new Error('no webgl'));
    const ctx = fakeContext();
    ctx.api.search.mockResolvedValue(page(range(1, 3), 3));
    const s = setup({}, ctx, page(range(1, 3), 3));
    renderWithStore(<App {...appProps(page(range(1, 3), 3))} />, s.store);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Map' }));
      await settle();
    });
    expect(ctx.api.search.mock.calls[0][0]).toMatchObject({ offset: 0, limit: 3 });
    const region = screen.getByRole('region', { name: 'Places in these results' });
    expect(within(region).getAllByRole('link')).toHaveLength(3);
    // Back to the list: the island renders the same three cards itself now.
    fireEvent.click(screen.getByRole('button', { name: 'List' }));
    expect(screen.getAllByRole('listitem').filter((li) => li.classList.contains('place-card'))).toHaveLength(3);
  });

  test('under the map the next page is not loaded on its own (the sentinel below a short map stays in view)', async () => {
    loadMapEngine.mockResolvedValue(engine);
    // An IntersectionObserver that reports the sentinel in view when the map is shown (it sits
    // just below it) and out of view under a page of cards.
    const original = (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver;
    (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = class {
      constructor(private readonly cb: (entries: Array<{ isIntersecting: boolean }>) => void) {}
      observe() {
        this.cb([{ isIntersecting: document.querySelector('.listing-search__map') !== null }]);
      }
      disconnect() {}
    };
    try {
      const ctx = fakeContext();
      ctx.api.search.mockImplementation(async (p: { offset: number; limit: number }) => page(range(p.offset + 1, p.limit), 1000));
      const s = setup({}, ctx);
      renderWithStore(<App {...appProps()} />, s.store);
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: 'Map' }));
        await settle();
      });
      await act(async () => {
        await settle();
        await settle();
      });
      // The printed page fetched as data for the markers, and nothing after it.
      expect(ctx.api.search.mock.calls.map(([p]) => p.offset)).toEqual([0]);
      expect(screen.getByRole('button', { name: /^Show more \(40 of / })).toBeTruthy();
    } finally {
      (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = original;
    }
  });
});
