import type { Response } from 'express';

// What a shareable answer shows, named in its `Surrogate-Key` header (space-separated short
// keys: `story-12 section-city-hall`), so that an edge cache (Varnish with xkey, Fastly's
// Surrogate-Key, Cloudflare's Cache-Tag) can drop exactly the answers a change touches
// (edge-purge.ts sends the keys of a change; docs/edge.md). A route adds the keys of what it
// shows; the header is removed from private answers (cache-policy.ts), which no edge keeps.
//
// The same keys are announced with a change (ContentChange.keys), so both sides are built here.

export const SURROGATE_KEY_HEADER = 'Surrogate-Key';
/**
 * How long the edge keeps an answer (Edge Architecture's header: Fastly honours it, Varnish
 * through deploy/varnish.vcl; neither passes it on, and nginx hides it). Browsers keep the
 * answer as Cache-Control says (60 s for pages).
 */
export const SURROGATE_CONTROL_HEADER = 'Surrogate-Control';
/**
 * An answer that names what it shows is purged when that changes, so the edge keeps it this
 * long: at 60 s a day's first visits found 75% of their pages at the edge (bench:day), at 10
 * minutes 92%. What no change announces (a rating's average, an event that just ended) is then
 * up to this old for guests; members go past the edge.
 */
export const EDGE_KEPT_SECONDS = 600;

/** An edge keeps one key header line under 8 KB (Varnish's default header limit): past this, keys are dropped. */
const MAX_HEADER_CHARS = 7_000;

const clean = (key: string) => key.trim().toLowerCase().replace(/[^a-z0-9_.:-]+/g, '-');

export const surrogateKeys = {
  home: 'home',
  /** Feeds and sitemaps that list stories. */
  feeds: 'feeds',
  story: (id: number) => `story-${id}`,
  /** A section: a story type's hub (/city-hall/) and /news/ (section-news). */
  section: (slug: string) => `section-${clean(slug)}`,
  place: (id: number) => `place-${id}`,
  list: (id: number) => `list-${id}`,
  event: (id: number) => `event-${id}`,
  neighbourhood: (id: number) => `neighbourhood-${id}`,
  /** A listing type's hub (/restaurants/) and the lists of places of that type. */
  hub: (typeSlug: string) => `hub-${clean(typeSlug)}`,
  /** Every answer that lists places of any type (the map, the places API, search). */
  places: 'places',
  /**
   * Where places are and what they are called: the geocoder's gazetteer, which no answer
   * carries. A change announces it when it adds a place, renames or moves one, so that an
   * hours or accessibility change does not make every process re-read every place.
   */
  placeLocations: 'place-locations',
  /** Every answer that lists events (the events hub, calendars, the events API). */
  events: 'events',
  /** Every answer that lists photos (the photo API, galleries). */
  photos: 'photos',
  video: (id: number) => `video-${id}`,
  /** Every page that lists videos (the videos hub, its channels, a video page's related row). */
  videos: 'videos',
  contest: (id: number) => `contest-${id}`,
  /** Every page that lists contests (the contests hub; the home shows the current ones). */
  contests: 'contests',
} as const;

/** The keys a story's change touches: its page, its section's hub, the latest news, the home and the feeds. */
export function storyKeys(id: number, typeSlug: string): string[] {
  return [...new Set([surrogateKeys.story(id), surrogateKeys.section(typeSlug), surrogateKeys.section('news'), surrogateKeys.home, surrogateKeys.feeds])];
}

/** The keys a place's change touches: its page, its type's hub, every list of places and its neighbourhood. */
export function placeKeys(place: { id: number; typeSlug: string; neighbourhoodId?: number | null }): string[] {
  const keys = [surrogateKeys.place(place.id), surrogateKeys.hub(place.typeSlug), surrogateKeys.places];
  if (place.neighbourhoodId != null) keys.push(surrogateKeys.neighbourhood(place.neighbourhoodId));
  return keys;
}

/** The keys events' change touches: their pages, every list of events and the home (it shows upcoming events). */
export function eventKeys(ids: readonly number[]): string[] {
  return [...ids.map((id) => surrogateKeys.event(id)), surrogateKeys.events, surrogateKeys.home];
}

/** The keys a video's change (staff's video form) touches: its page and every list of videos. */
export function videoKeys(id: number): string[] {
  return [surrogateKeys.video(id), surrogateKeys.videos];
}

/** The keys a contest's change (staff's contest form) touches: its page, the contests hub and the home. */
export function contestKeys(id: number): string[] {
  return [surrogateKeys.contest(id), surrogateKeys.contests, surrogateKeys.home];
}

/** The keys a Best of list's change touches: its page, the Best of hub and the home. */
export function bestOfListKeys(id: number): string[] {
  return [surrogateKeys.list(id), surrogateKeys.section('best-of'), surrogateKeys.home];
}

/**
 * The keys of a site search answer: what its results show (a story, a place, an event; videos
 * and contests change only with a deploy today). A result corrected or taken down drops the
 * answer at once; a new match appears when the answer expires (searchPage keeps it a minute).
 */
export function siteSearchKeys(results: ReadonlyArray<{ category: string; id: number }>): string[] {
  const keys: string[] = [];
  for (const r of results) {
    if (r.category === 'articles') keys.push(surrogateKeys.story(r.id));
    else if (r.category === 'listings') keys.push(surrogateKeys.place(r.id));
    else if (r.category === 'events') keys.push(surrogateKeys.event(r.id));
  }
  return keys;
}

/** A site search answer, at the edge: a minute at most, so that a new match is found within it. */
export const SITE_SEARCH_EDGE_SECONDS = 60;

/** Adds keys to the answer's Surrogate-Key header, keeping those already there (deduplicated, in order). */
export function addSurrogateKeys(res: Response, keys: readonly string[]): void {
  const before = res.getHeader(SURROGATE_KEY_HEADER);
  const all = new Set(typeof before === 'string' && before ? before.split(' ') : []);
  for (const k of keys) {
    const c = clean(k);
    if (c) all.add(c);
  }
  let value = '';
  for (const k of all) {
    if (value.length + k.length + 1 > MAX_HEADER_CHARS) break;
    value = value ? `${value} ${k}` : k;
  }
  if (value) {
    res.setHeader(SURROGATE_KEY_HEADER, value);
    if (!res.getHeader(SURROGATE_CONTROL_HEADER)) res.setHeader(SURROGATE_CONTROL_HEADER, `max-age=${EDGE_KEPT_SECONDS}`);
  }
}

/**
 * The edge keeps this answer at most `seconds`: what it shows changes with the clock, which no
 * change announces (a place's "Open now · Closes at 10 pm"). Only for an answer naming its keys
 * (after addSurrogateKeys): one naming none is kept as its Cache-Control says, and a private
 * one says nothing to the edge.
 */
export function keepAtEdgeAtMost(res: Response, seconds: number): void {
  if (!res.getHeader(SURROGATE_KEY_HEADER)) return;
  const kept = /max-age=(\d+)/.exec(String(res.getHeader(SURROGATE_CONTROL_HEADER) ?? ''));
  res.setHeader(SURROGATE_CONTROL_HEADER, `max-age=${kept ? Math.min(Number(kept[1]), seconds) : seconds}`);
}

/** A private answer names nothing for a shared cache. */
export function removeSurrogateKeys(res: Response): void {
  res.removeHeader(SURROGATE_KEY_HEADER);
  res.removeHeader(SURROGATE_CONTROL_HEADER);
}

/**
 * For a read API (api-cache-headers.ts sets its Cache-Control before the handler): names the
 * keys only on an answer that is shared (`public`, a guest's), none on a member's private one.
 */
export function addSharedSurrogateKeys(res: Response, keys: readonly string[]): void {
  const cacheControl = res.getHeader('Cache-Control');
  if (typeof cacheControl === 'string' && /^\s*public\b/i.test(cacheControl)) addSurrogateKeys(res, keys);
}
