import type { ListingDTO } from '../../../shared/dto';
import { formatDistanceKm } from '../../../shared/format/distance';
import { siteRelativeUrl } from '../../../shared/urls';
import type { BBox, LatLng, MapPoint } from './types';

// Pure helpers every map island shares: the spec's map constants (spec 2 §9), popup HTML
// (spec 2 §2 "Maps"), markers from listings, and a cheap WebGL check made before the
// maplibre chunk is downloaded. No maplibre import here: this module is in the island chunks.

export const MAP = {
  /** One marker: zoom 15. */
  singleZoom: 15,
  /** The city centre: zoom 12. */
  defaultZoom: 12,
  minZoom: 10,
  maxZoom: 19,
  padding: 36,
  /** Popup max width in px: the listing page's map, every other map. */
  popupWidthListing: 454,
  popupWidth: 300,
} as const;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(s: unknown): string {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** A site URL as a path when it points at this site (share_url is absolute), else as given. */
export function sitePath(url: string, siteUrl: string): string {
  return siteRelativeUrl(url, siteUrl);
}

/** Only http(s) URLs become links (a stored javascript: URL never does). */
export function safeHttp(url: string | null | undefined): string | null {
  if (!url) return null;
  return /^https?:\/\//i.test(url) ? url : null;
}

export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^0-9+]/g, '')}`;
}

/** The neighbourhood page of a listing's type: type share_url + 'n/' + id + path (spec 2 §2). */
export function neighbourhoodListingsPath(l: ListingDTO, siteUrl: string): string | null {
  if (!l.default_neighborhood) return null;
  const base = sitePath(l.type.share_url, siteUrl).replace(/\/$/, '');
  return `${base}/n/${l.default_neighborhood.id}${l.default_neighborhood.path}`;
}

/** The City's DineSafe inspection search (the listing page links the same place). */
export const DINESAFE_URL = 'https://www.toronto.ca/community-people/health-wellness-care/health-programs-advice/food-safety/dinesafe/';

function link(href: string | null | undefined, text: string): string {
  return href ? `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>` : escapeHtml(text);
}

/** Category › sub-category · neighbourhood, each a link to its page (spec 2 §2 "Maps"). */
export function listingKickerLinks(l: ListingDTO, siteUrl: string): string {
  const parts: string[] = [];
  const kinds: string[] = [];
  if (l.type?.name) kinds.push(link(l.type.share_url ? sitePath(l.type.share_url, siteUrl) : null, l.type.name));
  if (l.sub_type?.name) kinds.push(link(l.sub_type.share_url ? sitePath(l.sub_type.share_url, siteUrl) : null, l.sub_type.name));
  if (kinds.length) parts.push(kinds.join(' › '));
  if (l.default_neighborhood) parts.push(link(neighbourhoodListingsPath(l, siteUrl), l.default_neighborhood.name));
  return parts.join(' · ');
}

/**
 * A listing marker's popup: name, address (a maps search), phone, best-of sticker, and a button:
 * View Review (the page's published review), else View Website, else View Place (its page).
 */
export function listingPopupHtml(l: ListingDTO, ctx: { siteUrl: string; cityName: string }): string {
  const share = l.share_url ? sitePath(l.share_url, ctx.siteUrl) : null;
  const review = l.review_url ? sitePath(l.review_url, ctx.siteUrl) : null;
  const website = safeHttp(l.website);
  const parts: string[] = [`<div class="map-popup map-popup--listing">`];
  if (l.appears_in_best_of_lists) parts.push(`<span class="best-of-sticker">Best of ${escapeHtml(ctx.cityName)}</span>`);
  parts.push(`<p class="map-popup__name">${share ? `<a href="${escapeHtml(share)}">${escapeHtml(l.name)}</a>` : escapeHtml(l.name)}</p>`);
  const kicker = listingKickerLinks(l, ctx.siteUrl);
  if (kicker) parts.push(`<p class="map-popup__kicker">${kicker}</p>`);
  if (l.address) {
    const q = encodeURIComponent(`${l.address}, ${ctx.cityName}`);
    parts.push(`<p class="map-popup__address"><a href="https://www.openstreetmap.org/search?query=${q}" rel="noopener">${escapeHtml(l.address)}</a></p>`);
  }
  if (l.phone) parts.push(`<p class="map-popup__phone"><a href="${escapeHtml(telHref(l.phone))}">${escapeHtml(l.phone)}</a></p>`);
  if (website && review) parts.push(`<p class="map-popup__website"><a href="${escapeHtml(website)}" rel="nofollow noopener">Website</a></p>`);
  if (l.dinesafe_establishment_id) parts.push(`<p class="map-popup__food-safety"><a href="${DINESAFE_URL}" rel="noopener">Food safety inspections</a></p>`);
  if (typeof l.distance === 'number') parts.push(`<p class="map-popup__distance">${escapeHtml(formatDistanceKm(l.distance))}</p>`);
  // Spec 2: 'View Review' when there is one to read, otherwise 'View Website'; a place with
  // neither still gets a way to its page.
  if (review) parts.push(`<p class="map-popup__cta"><a class="button" href="${escapeHtml(review)}">View Review</a></p>`);
  else if (website) parts.push(`<p class="map-popup__cta"><a class="button" href="${escapeHtml(website)}" rel="nofollow noopener">View Website</a></p>`);
  else if (share) parts.push(`<p class="map-popup__cta"><a class="button" href="${escapeHtml(share)}">View Place</a></p>`);
  parts.push('</div>');
  return parts.join('');
}

export function namedPopupHtml(name: string, href: string | null, sub?: string): string {
  const title = href ? `<a href="${escapeHtml(href)}">${escapeHtml(name)}</a>` : escapeHtml(name);
  return `<div class="map-popup"><p class="map-popup__name">${title}</p>${sub ? `<p class="map-popup__kicker">${escapeHtml(sub)}</p>` : ''}</div>`;
}

export function listingPoints(listings: ListingDTO[], ctx: { siteUrl: string; cityName: string }, mainId?: number): MapPoint[] {
  return listings
    .filter((l) => l.coordinates && Number.isFinite(l.coordinates.latitude) && Number.isFinite(l.coordinates.longitude))
    .map((l) => ({
      id: l.id,
      latitude: l.coordinates!.latitude,
      longitude: l.coordinates!.longitude,
      kind: l.id === mainId ? 'main' : l.appears_in_best_of_lists ? 'best-of' : 'listing',
      popupHtml: listingPopupHtml(l, ctx),
    }));
}

export interface StationDTO {
  id: number;
  name: string;
  lines?: string[];
  coordinates: LatLng;
}

export function stationPoints(stations: StationDTO[]): MapPoint[] {
  return stations.map((s) => ({
    id: s.id,
    latitude: s.coordinates.latitude,
    longitude: s.coordinates.longitude,
    kind: 'station' as const,
    popupHtml: namedPopupHtml(`${s.name} Station`, null, s.lines?.length ? `Line ${s.lines.join(', ')}` : 'Subway station'),
  }));
}

/** The box around some points, or null when there are none. */
export function boundsOf(points: LatLng[]): BBox | null {
  if (!points.length) return null;
  let [l, b, r, t] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of points) {
    l = Math.min(l, p.longitude);
    r = Math.max(r, p.longitude);
    b = Math.min(b, p.latitude);
    t = Math.max(t, p.latitude);
  }
  return [l, b, r, t];
}

/** Every [lng, lat] of a Polygon or MultiPolygon, for fitting the view to boundaries. */
export function geometryPoints(geometry: { type: string; coordinates: unknown }): LatLng[] {
  const out: LatLng[] = [];
  const walk = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number' && typeof c[1] === 'number') out.push({ longitude: c[0], latitude: c[1] });
    else if (Array.isArray(c)) c.forEach(walk);
  };
  walk(geometry.coordinates);
  return out;
}

/** The bbox query value (left,bottom,right,top) rounded to ~1 m so URLs stay short. */
export { bboxParam } from '../../../shared/listing-hub';

/**
 * Whether this browser can give maplibre a WebGL context, asked before the 285 KB chunk is
 * fetched. Headless chromium with --disable-gpu may say no; the islands then keep (or show) a
 * readable fallback instead of a broken canvas.
 */
export function webglAvailable(): boolean {
  try {
    if (typeof document === 'undefined') return false;
    const canvas = document.createElement('canvas');
    const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
    return Boolean(gl);
  } catch {
    return false;
  }
}
