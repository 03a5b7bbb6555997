const PLACEHOLDER_ORIGIN = 'http://local.invalid';
// `//host` and `/\host` are read by browsers as another site; tabs and newlines are dropped
// by browsers before parsing, so `/\t/host` is `//host` too.
const OTHER_SITE = /^\/[/\\]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The path percent-decoded until it no longer changes (a few rounds), or null if malformed. */
function fullyDecoded(path: string): string | null {
  let current = path;
  for (let round = 0; round < 4; round++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (decoded === current) return current;
    current = decoded;
  }
  return current;
}

/** Whether a hop that decodes and normalises the path (a proxy, another app) would leave the site. */
function leavesSiteOnceDecoded(pathname: string): boolean {
  const decoded = fullyDecoded(pathname);
  if (decoded === null || CONTROL.test(decoded) || OTHER_SITE.test(decoded)) return true;
  // Decoded, `/.%2F/host` is `/.//host`, which normalises to `//host` in turn.
  return OTHER_SITE.test(new URL(decoded.replace(/\\/g, '/'), PLACEHOLDER_ORIGIN).pathname);
}

/**
 * A `next` target that stays on this site, or the fallback. The check is on the path as the
 * URL parser normalises it (`/.//evil` becomes `//evil`), and again on that path decoded
 * and normalised (`/%2F%2Fevil`, `/%5Cevil`, `/.%2F/evil`), since some hop may decode it.
 * The normalised path is what is returned, so what was checked is what is sent.
 */
export function safeNextPath(next: unknown, fallback = '/'): string {
  if (typeof next !== 'string' || next.length === 0 || next.length > 2000) return fallback;
  if (!next.startsWith('/') || OTHER_SITE.test(next) || next.includes('\\') || CONTROL.test(next)) return fallback;
  try {
    const url = new URL(next, PLACEHOLDER_ORIGIN);
    const target = url.pathname + url.search + url.hash;
    if (url.origin !== PLACEHOLDER_ORIGIN || OTHER_SITE.test(target) || leavesSiteOnceDecoded(url.pathname)) return fallback;
    return target;
  } catch {
    return fallback;
  }
}
