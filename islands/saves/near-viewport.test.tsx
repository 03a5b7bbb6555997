/// <reference types="jest" />
import { act, within } from '@testing-library/react';
import { renderWithStore } from '../common/test-utils';
import { SaveControlPortals } from './components/SaveControlPortals';
import { nearWatcher } from './near-viewport';
import { placeholderSet } from './placeholders';
import { setup, settle } from './testing';

// A hub's cards get their save controls as they come near the screen, or at once when a
// person points at or focuses one first; the others keep the server's login link till then.

/** An IntersectionObserver the test drives: `show(el)` reports it near the viewport. */
class FakeObserver {
  static all: FakeObserver[] = [];
  readonly targets = new Set<Element>();
  constructor(
    private readonly callback: IntersectionObserverCallback,
    readonly options?: IntersectionObserverInit,
  ) {
    FakeObserver.all.push(this);
  }
  observe(el: Element) {
    this.targets.add(el);
  }
  unobserve(el: Element) {
    this.targets.delete(el);
  }
  disconnect() {
    this.targets.clear();
  }
  static show(el: Element) {
    for (const o of FakeObserver.all) {
      if (o.targets.has(el)) o.callback([{ target: el, isIntersecting: true } as IntersectionObserverEntry], o as unknown as IntersectionObserver);
    }
  }
}

function placeholder(id: number): HTMLElement {
  const el = document.createElement('div');
  el.dataset.island = 'saves';
  el.dataset.save = 'listing-compact';
  el.dataset.objectId = String(id);
  el.innerHTML = '<a class="save-control__login" href="/accounts/login">Log in to save or rate</a>';
  return el;
}

/** Idle callbacks the test runs when it says the browser is idle. */
let idle: Array<() => void> = [];
const runIdle = () => {
  const now = idle;
  idle = [];
  now.forEach((fn) => fn());
};

describe('save controls near the screen', () => {
  let page: HTMLElement;
  beforeEach(() => {
    FakeObserver.all = [];
    idle = [];
    (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = FakeObserver;
    (globalThis as { requestIdleCallback?: unknown }).requestIdleCallback = (fn: () => void) => idle.push(fn);
    page = document.createElement('main');
    document.body.append(page);
  });
  afterEach(() => {
    delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver;
    delete (globalThis as { requestIdleCallback?: unknown }).requestIdleCallback;
    page.remove();
  });

  /** `count` cards in the page, with the island's controls rendered for them. */
  async function renderCards(count: number): Promise<HTMLElement[]> {
    const cards = Array.from({ length: count }, (_, i) => placeholder(i + 1));
    page.append(...cards);
    const set = placeholderSet(page);
    set.rescan();
    const { store } = setup();
    renderWithStore(<SaveControlPortals placeholders={set} />, store);
    await act(settle);
    return cards;
  }

  test('only cards reported near get a control; the rest follow as they come near or are pointed at', async () => {
    const cards = await renderCards(4);
    // Nothing is near until the observer says so: every card still has its login link.
    expect(cards.every((c) => c.querySelector('.save-control__login'))).toBe(true);
    expect(FakeObserver.all.at(-1)!.options?.rootMargin).toBe('100% 0px 100% 0px');

    await act(async () => FakeObserver.show(cards[0]));
    await act(settle);
    expect(within(cards[0]).getByRole('button', { name: 'Favourite' })).toBeTruthy();
    expect(cards[0].querySelector('.save-control__login')).toBeNull();
    expect(cards[1].querySelector('button')).toBeNull();

    // A tap on a card not yet near (a fast fling) makes its control at once.
    await act(async () => cards[3].querySelector('a')!.dispatchEvent(new Event('pointerdown', { bubbles: true })));
    await act(settle);
    expect(within(cards[3]).getByRole('button', { name: 'Favourite' })).toBeTruthy();
    expect(cards[2].querySelector('.save-control__login')).not.toBeNull();
    // Made once: the observer no longer watches the cards that have their control.
    expect(FakeObserver.all.at(-1)!.targets.has(cards[0])).toBe(false);
    expect(FakeObserver.all.at(-1)!.targets.has(cards[2])).toBe(true);
  });

  test('in idle moments after load the rest are made, a few at a time, in page order', async () => {
    const cards = await renderCards(10);
    expect(cards.filter((c) => c.querySelector('button')).length).toBe(0);
    await act(async () => runIdle());
    await act(settle);
    expect(cards.map((c) => Boolean(c.querySelector('button')))).toEqual([true, true, true, true, false, false, false, false, false, false]);
    await act(async () => runIdle());
    await act(async () => runIdle());
    await act(settle);
    expect(cards.every((c) => c.querySelector('button') && !c.querySelector('.save-control__login'))).toBe(true);
    expect(idle).toEqual([]); // nothing left to do: no more idle callbacks asked for
  });

  test('without IntersectionObserver every card is near at once', () => {
    delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver;
    const seen: number[] = [];
    const watcher = nearWatcher();
    watcher.watch(placeholder(1), () => seen.push(1));
    watcher.watch(placeholder(2), () => seen.push(2));
    expect(seen).toEqual([1, 2]);
  });
});
