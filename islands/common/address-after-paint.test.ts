/// <reference types="jest" />
import { dropPendingAddress, pendingAddress, replaceAddressAfterPaint, writePendingAddress } from './address-after-paint';

// The hub's address follows its criteria after the frame that shows the answer: the writes of
// one frame are one replaceState (the last wins), a navigation writes it first, and leaving the
// page writes it too.

const nextPaint = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
const here = () => window.location.pathname + window.location.search;

describe('an address that keeps the entry state (the hub)', () => {
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

describe('an address with its own history.state', () => {
  beforeEach(() => window.history.replaceState({ kept: 1 }, '', '/cafes/pilot-1/photos/'));

  test('is read back while pending, written with that state, and dropped by Back/Forward', async () => {
    replaceAddressAfterPaint('/cafes/pilot-1/photos/101/', { state: { photoViewer: 1 } });
    expect(pendingAddress()).toEqual({ url: '/cafes/pilot-1/photos/101/', state: { photoViewer: 1 } });
    await nextPaint();
    expect(pendingAddress()).toBeNull();
    expect(here()).toBe('/cafes/pilot-1/photos/101/');
    expect(window.history.state).toEqual({ photoViewer: 1 });

    replaceAddressAfterPaint('/cafes/pilot-1/photos/102/', { state: null });
    expect(pendingAddress()).toEqual({ url: '/cafes/pilot-1/photos/102/', state: null });
    dropPendingAddress();
    await nextPaint();
    expect(here()).toBe('/cafes/pilot-1/photos/101/');
  });
});
