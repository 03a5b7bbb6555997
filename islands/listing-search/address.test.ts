/// <reference types="jest" />
import { replaceAddressAfterPaint, writePendingAddress } from './address';

// The hub's address follows its criteria after the frame that shows the answer: the writes of
// one frame are one replaceState (the last wins), a navigation writes it first, and leaving the
// page writes it too.

const nextPaint = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
const here = () => window.location.pathname + window.location.search;

describe('the hub address', () => {
  beforeEach(() => window.history.replaceState({ kept: 1 }, '', '/restaurants/'));

  test('is written after the next frame, once, with the last address, keeping history.state', async () => {
    const replace = jest.spyOn(window.history, 'replaceState');
    try {
      replaceAddressAfterPaint('/restaurants/?ordering=-rating');
      replaceAddressAfterPaint('/restaurants/?ordering=name');
      expect(here()).toBe('/restaurants/');
      expect(replace).not.toHaveBeenCalled();
      await nextPaint();
      expect(replace).toHaveBeenCalledTimes(1);
      expect(here()).toBe('/restaurants/?ordering=name');
      expect(window.history.state).toEqual({ kept: 1 });
    } finally {
      replace.mockRestore();
    }
  });

  test('a navigation or leaving the page writes the pending address first', () => {
    replaceAddressAfterPaint('/restaurants/?best_of=true');
    writePendingAddress();
    expect(here()).toBe('/restaurants/?best_of=true');
    replaceAddressAfterPaint('/restaurants/?open_now=true');
    window.dispatchEvent(new Event('pagehide'));
    expect(here()).toBe('/restaurants/?open_now=true');
  });
});
