// Cookies the islands themselves decide (the age gate's answer, the newsletter prompt's
// "closed"): readable by the server too, for the whole site, Lax like the server's own.
// Reading is api.ts's readCookie.

export function writeCookie(name: string, value: string, opts: { maxAgeSeconds?: number } = {}): void {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'path=/', 'SameSite=Lax'];
  // CASE: no max-age: a session cookie, gone when the browser closes
  if (opts.maxAgeSeconds !== undefined) parts.push(`max-age=${Math.floor(opts.maxAgeSeconds)}`);
  if (typeof location !== 'undefined' && location.protocol === 'https:') parts.push('Secure');
  document.cookie = parts.join('; ');
}
