import type { Response } from 'express';

/** Escapes text for XML content and attribute values. */
export function xmlEscape(value: string): string {
  return value.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}

/** Drops characters XML 1.0 forbids (control characters from imported text would break a feed). */
export function xmlText(value: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return xmlEscape(value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, ''));
}

/** An XML answer, public and cached for `maxAgeSeconds`. */
export function sendXml(res: Response, body: string, maxAgeSeconds: number, type = 'application/xml'): void {
  res.set('Cache-Control', `public, max-age=${maxAgeSeconds}`).type(type).send(body);
}
