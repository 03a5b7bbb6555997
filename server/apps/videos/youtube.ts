import { ValidationError } from '../../http/errors';

// A YouTube video as staff name it (its id, or any of the addresses YouTube hands out for it),
// and its still, fetched from YouTube only where the operator allows outside requests
// (config.videos.thumbnailsFromYoutube).

/** A video id: 11 characters of YouTube's URL-safe alphabet. */
export const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

const WATCH_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com', 'youtube-nocookie.com', 'www.youtube-nocookie.com']);

/**
 * The id in `input`: the id itself, or a watch, share (youtu.be), embed, shorts or live
 * address. Null for anything else (another site, a channel, a playlist without a video).
 */
export function youtubeIdOf(input: string): string | null {
  const raw = input.trim();
  if (YOUTUBE_ID.test(raw)) return raw;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase();
  const segments = url.pathname.split('/').filter(Boolean);
  let id: string | null | undefined = null;
  if (host === 'youtu.be' || host === 'www.youtu.be') id = segments[0];
  else if (WATCH_HOSTS.has(host)) {
    if (segments[0] === 'watch') id = url.searchParams.get('v');
    else if (['embed', 'shorts', 'live', 'v', 'e'].includes(segments[0] ?? '')) id = segments[1];
  }
  return id && YOUTUBE_ID.test(id) ? id : null;
}

/** YouTube's still of a video (480x360; every video has one). */
export const youtubeStillUrl = (id: string): string => `https://i.ytimg.com/vi/${id}/hqdefault.jpg`;

const STILL_MAX_BYTES = 2 * 1024 * 1024;
const STILL_TIMEOUT_MS = 10_000;

/**
 * Fetches the still of video `id` (a checked id: the address is always YouTube's own image
 * host), bounded in time and size. A video YouTube does not know, or a failed request, is
 * refused on the image field so staff can upload one instead.
 */
export async function fetchYoutubeStill(id: string): Promise<{ buffer: Buffer; mimetype: string }> {
  if (!YOUTUBE_ID.test(id)) throw ValidationError.field('youtube', 'Give the video\'s YouTube id or address.');
  const refused = ValidationError.field('image', 'YouTube has no still for this video (or did not answer): upload an image.');
  let res: Response;
  try {
    res = await fetch(youtubeStillUrl(id), { signal: AbortSignal.timeout(STILL_TIMEOUT_MS), redirect: 'error' });
  } catch {
    throw refused;
  }
  const type = res.headers.get('content-type') ?? '';
  if (res.status !== 200 || !type.startsWith('image/') || Number(res.headers.get('content-length') ?? 0) > STILL_MAX_BYTES) {
    await res.body?.cancel().catch(() => undefined);
    throw refused;
  }
  const buffer = Buffer.from(await res.arrayBuffer());
  if (!buffer.length || buffer.length > STILL_MAX_BYTES) throw refused;
  return { buffer, mimetype: type.split(';')[0].trim() };
}
