// Every public URL the site prints, built in one place so the server's routes, templates,
// sitemaps and the islands agree. Paths end with a slash, as the specs' paths do.

export const urls = {
  listingType: (typeSlug: string) => `/${typeSlug}/`,
  listingSubType: (typeSlug: string, subTypeSlug: string) => `/${typeSlug}/${subTypeSlug}/`,
  /** Listing detail: the slug is for people; the trailing id is what the route reads. */
  listing: (typeSlug: string, slug: string, id: number) => `/${typeSlug}/${slug}-${id}/`,
  listingPhotos: (typeSlug: string, slug: string, id: number) => `/${typeSlug}/${slug}-${id}/photos/`,
  photo: (typeSlug: string, slug: string, listingId: number, photoId: number) => `/${typeSlug}/${slug}-${listingId}/photos/${photoId}/`,
  /** Neighbourhood path as the specs compose it: type share_url + 'n/' + id + path. */
  neighbourhoodPath: (slug: string) => `/${slug}/`,
  neighbourhoodListings: (typeSlug: string, neighbourhoodId: number, slug: string) => `/${typeSlug}/n/${neighbourhoodId}/${slug}/`,
  neighbourhood: (slug: string) => `/neighbourhoods/${slug}/`,
  articleType: (typeSlug: string) => `/${typeSlug}/`,
  event: (slug: string, id: number) => `/events/${slug}-${id}/`,
  contest: (name: string) => `/contests/${name}/`,
  /** The entry form (private: it carries the CSRF token) and where entries are posted. */
  contestEnter: (name: string) => `/contests/${name}/enter/`,
  contestRules: (name: string) => `/contests/${name}/rules/`,
  staffContests: () => '/staff/contests/',
  staffContest: (id: number) => `/staff/contests/${id}/`,
  video: (slug: string) => `/videos/${slug}/`,
  videoCategory: (slug: string) => `/videos/category/${slug}/`,
  bestOfList: (slug: string) => `/best-of/${slug}/`,
} as const;

/**
 * A video's embedded player (the privacy-enhanced YouTube host the CSP allows). The video page
 * prints it as it is; the video grid asks it to play at once, as the visitor clicked to play.
 */
export function youtubeEmbedUrl(youtubeCode: string, opts: { autoplay?: boolean } = {}): string {
  const url = `https://www.youtube-nocookie.com/embed/${encodeURIComponent(youtubeCode)}`;
  return opts.autoplay ? `${url}?autoplay=1&rel=0` : url;
}

/** Reads the id from a `{slug}-{id}` path segment; null when there is none. */
export function idFromSlugSegment(segment: string): number | null {
  const m = /-(\d{1,9})$/.exec(segment);
  return m ? Number(m[1]) : null;
}

export function absoluteUrl(siteUrl: string, path: string): string {
  return /^https?:\/\//.test(path) ? path : `${siteUrl}${path}`;
}

const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/**
 * The form of one of our own URLs a page prints: `${SITE_URL}/media/a.jpg` → `/media/a.jpg`.
 * A page may be opened at another name than SITE_URL (127.0.0.1 for localhost, a staging host),
 * and its CSP (img-src 'self') and the media's Cross-Origin-Resource-Policy refuse pictures
 * from SITE_URL's origin there. The API, feeds, JSON-LD and Open Graph keep absolute URLs;
 * HTML and islands print this, for pictures and links alike. Foreign, relative and data URLs
 * pass through as they are.
 */
export function siteRelativeUrl(url: string, siteUrl: string): string {
  const own = ORIGIN.exec(siteUrl)?.[0];
  const origin = own ? ORIGIN.exec(url)?.[0] : undefined;
  if (!own || !origin || origin.toLowerCase() !== own.toLowerCase()) return url;
  const rest = url.slice(origin.length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}
