/// <reference types="jest" />
import { api } from '../common/api';
import { loadMapEngine as realLoadMapEngine } from '../common/maps/loader';
import { whenNear as realWhenNear } from '../common/maps/mount-map';
import type { MapEngine, MapHandle, MapOptions } from '../common/maps/types';
import { PLACE_LOCATE_API } from '../../shared/place-pin';
import { pointOf, setUpPlacePin } from './pin';

// The places desk's pin in jsdom (no WebGL, no maplibre: the engine is a fake): the form's inputs
// stay the truth; the geocoder places the address, the pin writes the inputs, the inputs move the
// pin, and each point's neighbourhood and station are shown. The map loads only when needed.

jest.mock('../common/api', () => ({ api: { get: jest.fn() } }));
jest.mock('../common/maps/loader', () => ({ loadMapEngine: jest.fn() }));
jest.mock('../common/maps/mount-map', () => ({ fetchStations: jest.fn().mockResolvedValue([]), whenNear: jest.fn() }));
jest.mock('../common/maps/geo', () => ({ ...jest.requireActual('../common/maps/geo'), webglAvailable: () => true }));

const get = api.get as jest.Mock;
const loadMapEngine = realLoadMapEngine as jest.Mock;
const whenNear = realWhenNear as jest.Mock;
const handle = { setPoints: jest.fn(), bounds: jest.fn(), onMoveEnd: jest.fn(), whenStill: jest.fn(), resize: jest.fn(), destroy: jest.fn(), movePin: jest.fn() } as jest.Mocked<MapHandle>;
const engine: MapEngine = { create: jest.fn().mockResolvedValue(handle) };
const flush = async () => { for (let i = 0; i < 10; i += 1) await Promise.resolve(); };

const KENSINGTON = { neighbourhood: { id: 78, name: 'Kensington-Chinatown' }, station: { id: 1, name: 'Osgoode', distanceM: 143 } };

function form(lat = '', lng = ''): { el: HTMLElement; address: HTMLInputElement; lat: HTMLInputElement; lng: HTMLInputElement; status: () => HTMLElement } {
  document.body.innerHTML = `<form><input name="address"><div data-island="place-pin"></div><input name="latitude" value="${lat}"><input name="longitude" value="${lng}"></form>`;
  const el = document.querySelector<HTMLElement>('[data-island="place-pin"]')!;
  setUpPlacePin(el);
  const input = (n: string) => document.querySelector<HTMLInputElement>(`input[name="${n}"]`)!;
  return { el, address: input('address'), lat: input('latitude'), lng: input('longitude'), status: () => el.querySelector<HTMLElement>('[role="status"]')! };
}

function answer(routes: Record<string, unknown>) {
  get.mockImplementation(async (path: string) => {
    if (!(path in routes)) throw new Error(`unexpected ${path}`);
    return routes[path];
  });
}

beforeEach(() => {
  get.mockReset();
  whenNear.mockReset();
  loadMapEngine.mockReset().mockResolvedValue(engine);
  (engine.create as jest.Mock).mockClear();
  (handle.movePin as jest.Mock).mockClear();
});

test('pointOf reads two numbers in range, nothing else', () => {
  expect(pointOf(' 43.65 ', '-79.38')).toEqual({ latitude: 43.65, longitude: -79.38 });
  expect([pointOf('', '-79.38'), pointOf('north', '-79.38'), pointOf('91', '0'), pointOf('0', '-181')]).toEqual([null, null, null, null]);
});

test('"Find on map" places the address: the inputs filled, the map drawn with the pin there, where it is said', async () => {
  answer({ '/api/v2/geocode/': { results: [{ label: 'Queen St W station', kind: 'station', coordinates: { latitude: 1, longitude: 1 } }, { label: '196 Queen St W', kind: 'address', coordinates: { latitude: 43.6505, longitude: -79.3885 } }] }, [PLACE_LOCATE_API]: KENSINGTON });
  const f = form();
  expect(loadMapEngine).not.toHaveBeenCalled();
  f.address.value = '196 Queen St W';
  f.el.querySelector<HTMLButtonElement>('button')!.click();
  await flush();
  expect(get).toHaveBeenCalledWith('/api/v2/geocode/', { q: '196 Queen St W' });
  expect([f.lat.value, f.lng.value]).toEqual(['43.650500', '-79.388500']);
  const opts = (engine.create as jest.Mock).mock.calls[0][1] as MapOptions;
  expect(opts.pin?.at).toEqual({ latitude: 43.6505, longitude: -79.3885 });
  expect(get).toHaveBeenCalledWith(PLACE_LOCATE_API, { latitude: '43.650500', longitude: '-79.388500' });
  expect(f.status().textContent).toBe('Neighbourhood: Kensington-Chinatown · Nearest station: Osgoode (140 m)');
  expect(f.el.dataset.map).toBe('ready');

  // The pin dragged: the inputs follow, the line is asked again, the pin is not moved back.
  answer({ [PLACE_LOCATE_API]: { neighbourhood: { id: 164, name: 'Wellington Place' }, station: null } });
  opts.pin!.onMove({ latitude: 43.6499, longitude: -79.388 });
  await flush();
  expect([f.lat.value, f.lng.value]).toEqual(['43.649900', '-79.388000']);
  expect(f.status().textContent).toBe('Neighbourhood: Wellington Place');
  expect(handle.movePin).not.toHaveBeenCalled();

  // A point typed moves the pin; a half-typed one does not.
  f.lat.value = '43.6512';
  f.lat.dispatchEvent(new Event('change'));
  await flush();
  expect(handle.movePin).toHaveBeenLastCalledWith({ latitude: 43.6512, longitude: -79.388 });
  f.lng.value = '-';
  f.lng.dispatchEvent(new Event('change'));
  expect(handle.movePin).toHaveBeenCalledTimes(1);
  expect(engine.create).toHaveBeenCalledTimes(1);
});

test('outside Toronto, no address, or an address the geocoder cannot place: said beside the button', async () => {
  const f = form();
  f.el.querySelector<HTMLButtonElement>('button')!.click();
  await flush();
  expect([f.status().textContent, f.status().dataset.state, document.activeElement]).toEqual(['Type the address first.', 'error', f.address]);

  answer({ '/api/v2/geocode/': { results: [] } });
  f.address.value = '1 Nowhere Rd';
  f.address.dispatchEvent(new Event('change'));
  await flush();
  expect(f.status().textContent).toMatch(/^We could not place that address/);
  expect([f.lat.value, loadMapEngine.mock.calls.length]).toEqual(['', 0]);

  answer({ [PLACE_LOCATE_API]: { neighbourhood: null, station: null } });
  f.lat.value = '45.5';
  f.lng.value = '-73.56';
  f.lng.dispatchEvent(new Event('change'));
  await flush();
  expect(f.status().textContent).toBe('That point is outside Toronto.');
});

test('a form that has a point says where it is at once, and draws the map only when it comes near', async () => {
  answer({ [PLACE_LOCATE_API]: KENSINGTON });
  const f = form('43.6505', '-79.3885');
  await flush();
  expect(f.status().textContent).toMatch(/^Neighbourhood: Kensington-Chinatown/);
  expect(loadMapEngine).not.toHaveBeenCalled();
  expect(whenNear).toHaveBeenCalledWith(f.el, expect.any(Function));
  whenNear.mock.calls[0][1]();
  await flush();
  expect(((engine.create as jest.Mock).mock.calls[0][1] as MapOptions).pin?.at).toEqual({ latitude: 43.6505, longitude: -79.3885 });
});
