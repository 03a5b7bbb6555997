/// <reference types="jest" />
import { browserHistory } from './history';

// The browser history the viewer writes: a move's address is written after the frame that shows
// the photo, read back at once, written before a push or Back, and dropped by Back/Forward.

const nextPaint = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
const here = () => window.location.pathname + window.location.search;

describe('browserHistory', () => {
  beforeEach(() => window.history.replaceState(null, '', '/cafes/pilot-1/photos/'));

  test("a move's address is read back at once and written after the next frame", async () => {
    browserHistory.push('/cafes/pilot-1/photos/100/', { photoViewer: 0 });
    browserHistory.replace('/cafes/pilot-1/photos/101/', { photoViewer: 1 });
    browserHistory.replace('/cafes/pilot-1/photos/102/', { photoViewer: 2 });
    expect(here()).toBe('/cafes/pilot-1/photos/100/');
    expect(browserHistory.location()).toBe('/cafes/pilot-1/photos/102/');
    expect(browserHistory.current()).toEqual({ photoViewer: 2 });
    await nextPaint();
    expect(here()).toBe('/cafes/pilot-1/photos/102/');
    expect(window.history.state).toEqual({ photoViewer: 2 });
  });

  test('a push writes the address waiting first', () => {
    const length = window.history.length;
    browserHistory.replace('/cafes/pilot-1/photos/?page=2', null);
    browserHistory.push('/cafes/pilot-1/photos/103/', { photoViewer: 3 });
    expect(window.history.length).toBe(length + 1);
    expect(here()).toBe('/cafes/pilot-1/photos/103/');
    expect(browserHistory.current()).toEqual({ photoViewer: 3 });
  });

  test('Back or Forward drops an address not yet written', async () => {
    const pops: unknown[] = [];
    const stop = browserHistory.listen((s) => pops.push(s));
    try {
      browserHistory.replace('/cafes/pilot-1/photos/104/', { photoViewer: 4 });
      window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
      expect(pops).toEqual([null]);
      expect(browserHistory.current()).toBeNull();
      await nextPaint();
      expect(here()).toBe('/cafes/pilot-1/photos/');
    } finally {
      stop();
    }
  });
});
