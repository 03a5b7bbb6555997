import { api } from '../common/api';
import { loadMapEngine } from '../common/maps/loader';
import { fetchStations, whenNear } from '../common/maps/mount-map';
import { MAP, webglAvailable } from '../common/maps/geo';
import type { LatLng, MapHandle } from '../common/maps/types';
import type { GeocodeResultDTO } from '../../shared/dto';
import { PLACE_LOCATE_API, describePlaceLocation, type PlaceLocationDTO } from '../../shared/place-pin';

// The places desk's map pin (issue 39). Not React: like the page maps, one imperative widget
// beside the form's own inputs, which stay the truth. The form's `address`, `latitude` and
// `longitude` inputs work without it (the server geocodes on save); with it, "Find on map" (or
// leaving the address field changed) asks our geocoder and puts the pin there, dragging the pin
// (or clicking the map) writes the two inputs, typing in them moves the pin, and each move
// shows the neighbourhood and nearest station the server finds for the point.
//
// MapLibre loads only when a pin is to be shown: after "Find on map", or, for a form that already
// has a point, when the island comes near the viewport (a phone's form shows the map far down).

const GEOCODE_API = '/api/v2/geocode/';
/** Street level (the spec's 256-px zoom): a drag of a few pixels is a few metres, not a block. */
const PIN_ZOOM = 17;

/** The point the two inputs hold, when they hold one. */
export function pointOf(latitude: string, longitude: string): LatLng | null {
  const lat = Number(latitude.trim());
  const lng = Number(longitude.trim());
  if (!latitude.trim() || !longitude.trim() || !Number.isFinite(lat) || !Number.isFinite(lng)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { latitude: lat, longitude: lng };
}

/** Six decimals: about 10 cm, finer than a pin can be put. */
const coordinateText = (n: number) => n.toFixed(6);

export function setUpPlacePin(el: HTMLElement): void {
  const form = el.closest('form');
  const input = (name: string) => form?.querySelector<HTMLInputElement>(`input[name="${name}"]`) ?? null;
  const address = input('address');
  const lat = input('latitude');
  const lng = input('longitude');
  if (!form || !address || !lat || !lng) return;

  el.classList.add('place-pin');
  const bar = document.createElement('div');
  bar.className = 'place-pin__bar';
  const find = document.createElement('button');
  find.type = 'button';
  find.className = 'button button--secondary place-pin__find';
  find.textContent = 'Find on map';
  const where = document.createElement('p');
  where.className = 'place-pin__where';
  where.setAttribute('role', 'status');
  bar.append(find, where);
  const canvas = document.createElement('div');
  canvas.className = 'place-pin__map';
  canvas.hidden = true;
  el.append(bar, canvas);

  const say = (text: string, state: 'ok' | 'busy' | 'error') => {
    where.textContent = text;
    where.dataset.state = state;
  };

  // Only the newest answer is shown: a pin dragged twice quickly must not end on the first one.
  let asked = 0;
  async function locate(p: LatLng): Promise<void> {
    const mine = ++asked;
    try {
      const loc = await api.get<PlaceLocationDTO>(PLACE_LOCATE_API, { latitude: coordinateText(p.latitude), longitude: coordinateText(p.longitude) });
      if (mine === asked) say(describePlaceLocation(loc), loc.neighbourhood ? 'ok' : 'error');
    } catch {
      if (mine === asked) say('Could not look up the neighbourhood just now; it is worked out again when you save.', 'error');
    }
  }

  let handle: MapHandle | null = null;
  let creating: Promise<void> | null = null;
  function showPin(p: LatLng): void {
    if (handle) return handle.movePin?.(p);
    if (creating) return;
    // Without WebGL the inputs and the line above them still do the job.
    if (!webglAvailable()) {
      el.dataset.map = 'unavailable';
      return;
    }
    canvas.hidden = false;
    el.dataset.map = 'loading';
    creating = (async () => {
      const [engine, stations] = await Promise.all([loadMapEngine(), fetchStations()]);
      handle = await engine.create(canvas, {
        center: p,
        zoom: PIN_ZOOM,
        fit: 'none',
        stations,
        popupMaxWidth: MAP.popupWidth,
        label: 'Map of where the place is: drag the pin to move it',
        pin: { at: p, label: 'The place: drag to move', onMove: (moved) => put(moved, 'pin') },
      });
      el.dataset.map = 'ready';
      handle.resize();
      // The inputs may have moved on while the map loaded.
      const now = pointOf(lat!.value, lng!.value);
      if (now && (now.latitude !== p.latitude || now.longitude !== p.longitude)) handle.movePin?.(now);
    })().catch((err: Error) => {
      canvas.hidden = true;
      el.dataset.map = 'unavailable';
      el.dataset.mapError = err.message;
      creating = null;
    });
  }

  function put(p: LatLng, from: 'pin' | 'inputs' | 'address'): void {
    if (from !== 'inputs') {
      lat!.value = coordinateText(p.latitude);
      lng!.value = coordinateText(p.longitude);
    }
    if (from !== 'pin') showPin(p);
    void locate(p);
  }

  let placed = '';
  async function findAddress(): Promise<void> {
    const q = address!.value.trim();
    if (!q) {
      say('Type the address first.', 'error');
      address!.focus();
      return;
    }
    placed = q;
    say('Finding the address…', 'busy');
    try {
      const { results } = await api.get<{ results: GeocodeResultDTO[] }>(GEOCODE_API, { q });
      const hit = results.find((r) => r.kind === 'address') ?? results[0];
      if (!hit) return say('We could not place that address: check it, or type the latitude and longitude.', 'error');
      put(hit.coordinates, 'address');
    } catch {
      say('Could not reach the map just now: type the latitude and longitude, or save and we place the address.', 'error');
    }
  }

  find.addEventListener('click', () => void findAddress());
  // Leaving the address field changed places it too, unless "Find on map" already did.
  address.addEventListener('change', () => {
    if (address.value.trim() && address.value.trim() !== placed) void findAddress();
  });
  for (const field of [lat, lng]) {
    field.addEventListener('change', () => {
      const p = pointOf(lat.value, lng.value);
      if (p) put(p, 'inputs');
    });
  }

  // A form that has a point already (an edit, or a post sent back) shows where it is.
  const start = pointOf(lat.value, lng.value);
  if (start) {
    void locate(start);
    whenNear(el, () => showPin(start));
  }
}
