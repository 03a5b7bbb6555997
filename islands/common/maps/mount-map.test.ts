/// <reference types="jest" />
import { loadMapEngine as realLoadMapEngine } from './loader';
import { mountMapIsland, NEAR } from './mount-map';
import type { MapEngine, MapHandle } from './types';

// A map island draws only when it comes near the viewport (maplibre stays unloaded until then),
// and over its stand-in (data-map-frame) when the placeholder has one. jsdom has neither
// IntersectionObserver nor WebGL: both are stood in for here.

jest.mock('./loader', () => ({ loadMapEngine: jest.fn() }));
jest.mock('./geo', () => ({ ...jest.requireActual('./geo'), webglAvailable: () => true }));
const loadMapEngine = realLoadMapEngine as jest.Mock;
const handle = { setPoints: jest.fn(), bounds: jest.fn(), onMoveEnd: jest.fn(), whenStill: jest.fn(), resize: jest.fn(), destroy: jest.fn() } as jest.Mocked<MapHandle>;
const engine: MapEngine = { create: jest.fn().mockResolvedValue(handle) };

let observers: Array<{ callback: IntersectionObserverCallback; options?: IntersectionObserverInit; targets: Element[]; disconnected: boolean }> = [];
class FakeObserver {
  private entry: (typeof observers)[number];
  constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
    this.entry = { callback, options, targets: [], disconnected: false };
    observers.push(this.entry);
  }
  observe(el: Element) { this.entry.targets.push(el); }
  disconnect() { this.entry.disconnected = true; }
}
const report = (isIntersecting: boolean) =>
  observers.forEach((o) => o.callback(o.targets.map((target) => ({ target, isIntersecting }) as IntersectionObserverEntry), o as unknown as IntersectionObserver));
const flush = async () => { for (let i = 0; i < 5; i += 1) await Promise.resolve(); };

beforeEach(() => {
  observers = [];
  (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = FakeObserver;
  loadMapEngine.mockReset().mockResolvedValue(engine);
  (engine.create as jest.Mock).mockClear();
});

test('the map loads only once its placeholder comes near the viewport, and draws over the stand-in', async () => {
  document.body.innerHTML = '<div data-island="test-map"><figure><div data-map-frame><img alt="Street map"></div><figcaption>links</figcaption></figure></div>';
  const options = jest.fn().mockResolvedValue({ center: { latitude: 43.65, longitude: -79.38 }, zoom: 14, fit: 'none', points: [], popupMaxWidth: 300, label: 'Map' });
  mountMapIsland('test-map', options);
  const el = document.querySelector<HTMLElement>('[data-island="test-map"]')!;
  expect(observers.map((o) => [o.options?.rootMargin, o.targets])).toEqual([[NEAR, [el]]]);

  report(false); // still far below the fold
  await flush();
  expect([loadMapEngine.mock.calls.length, options.mock.calls.length, el.dataset.map]).toEqual([0, 0, undefined]);

  report(true);
  await flush();
  expect(loadMapEngine).toHaveBeenCalledTimes(1);
  expect(observers[0].disconnected).toBe(true);
  const canvas = (engine.create as jest.Mock).mock.calls[0][0] as HTMLElement;
  expect(canvas.parentElement).toBe(el.querySelector('[data-map-frame]'));
  expect([el.dataset.map, el.classList.contains('is-map-framed')]).toEqual(['ready', true]);
});

test('a placeholder without a stand-in gets the map after its fallback, as before', async () => {
  document.body.innerHTML = '<div data-island="plain-map"><svg></svg></div>';
  mountMapIsland('plain-map', async () => ({ center: { latitude: 43.65, longitude: -79.38 }, zoom: 12, fit: 'none', points: [], popupMaxWidth: 300, label: 'Map' }));
  report(true);
  await flush();
  const el = document.querySelector<HTMLElement>('[data-island="plain-map"]')!;
  expect((engine.create as jest.Mock).mock.calls[0][0].parentElement).toBe(el);
  expect([el.dataset.map, el.classList.contains('is-map-framed')]).toEqual(['ready', false]);
});
