import { z } from 'zod';
import { ValidationError } from '../../http/errors';

// A JPEG sent as base64 text in a JSON body (a listing photo, a profile photo), refused before
// anything is decoded when its declared type is not JPEG or its length says it is too large.
//
// The text is decoded piece by piece into one Buffer of at most maxBytes (Base64Decoder), so a
// 6 MB photo costs its 6 MB and a few pieces of 64 KB, not the 8.4 MB text again for checking.
// The listing and profile photo routes never hold the text at all: their body parser feeds the
// decoder as the body arrives (json-base64-body-middleware.ts).

const DATA_URL_PREFIX = /^data:([a-z]+\/[a-z0-9.+-]+)?(;[a-z0-9=.-]+)*;base64,/i;
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);
/** A data: URL prefix longer than this is none (the text is then taken as base64, and fails). */
const MAX_PREFIX_CHARS = 256;
/** Pieces of a string given whole are decoded this many characters at a time. */
const PIECE_CHARS = 64 * 1024;

export interface Base64JpegRules {
  /** The body field it came in: errors are keyed by it. */
  field: string;
  maxBytes: number;
  /** Said when it is too large or not a JPEG. */
  tooLargeOrNotJpeg: string;
  /** Said when the text is not base64 or the bytes are no image at all. */
  notAnImage: string;
}

/** A base64 field once decoded: its bytes and what the checks below need to know of its text. */
export class DecodedBase64 {
  constructor(
    /** The decoded bytes; empty when they would have been more than the decoder's maxBytes. */
    private held: Buffer,
    /** Its media type, when a data: URL prefix declared one. */
    readonly mediaType: string | null,
    /** Characters of base64 text, without the prefix and whitespace. */
    readonly length: number,
    /** '=' characters that end the text (0 to 2). */
    readonly padding: number,
    /** Nothing but base64, padded right if at all, and its last bits zero (what it decodes to encodes back to it). */
    readonly canonical: boolean,
    /** It decodes to more than the decoder's maxBytes (and was only counted from there on). */
    readonly overflow: boolean,
    /** Characters of the text as sent, prefix and whitespace included (0: an empty string). */
    readonly sent: number,
  ) {}

  get bytes(): Buffer {
    return this.held;
  }

  /**
   * Hands the bytes over and keeps no reference to them: the request's body (which holds this
   * object until the answer is sent) then no longer keeps a photo alive once it is re-encoded.
   */
  take(): Buffer {
    const bytes = this.held;
    this.held = Buffer.alloc(0);
    return bytes;
  }
}

/**
 * Decodes base64 text given in pieces of any size (a data: URL prefix is allowed, whitespace
 * is skipped) into a Buffer of at most maxBytes. Every piece is checked by a native round trip
 * (Buffer.from skips what is not base64, so re-encoding tells clean text from junk; a regular
 * expression over 8 MB held the event loop for ~100 ms an upload). Past maxBytes, or once the
 * text is known not to be base64, it only counts characters.
 */
export class Base64Decoder {
  private head: string | null = '';
  private carry = '';
  private length = 0;
  private tail = '';
  private canonical = true;
  private padded = false;
  private overflow = false;
  private mediaType: string | null = null;
  private out: Buffer | null = null;
  private written = 0;
  private sent = 0;

  /**
   * @param maxBytes the most bytes kept
   * @param expectedBytes what the text may decode to at most (from the body's length), so
   *   the Buffer is no larger than needed; it grows to maxBytes if that was wrong
   */
  constructor(
    private readonly maxBytes: number,
    private readonly expectedBytes = maxBytes,
  ) {}

  write(text: string): void {
    this.sent += text.length;
    if (this.head === null) return this.feed(text);
    this.head += text;
    // The prefix ends at its comma (none of its characters is one): wait for it, or give up.
    const maybePrefix = 'data:'.startsWith(this.head.slice(0, 5).toLowerCase());
    if (maybePrefix && !this.head.includes(',') && this.head.length <= MAX_PREFIX_CHARS) return;
    this.tellPrefix();
  }

  end(): DecodedBase64 {
    if (this.head !== null) this.tellPrefix();
    if (this.carry.length === 1) this.canonical = false;
    else if (this.carry && this.canonical && !this.overflow) this.decode(this.carry + '='.repeat(4 - this.carry.length));
    this.carry = '';
    const bytes = this.overflow || !this.out ? Buffer.alloc(0) : this.out.subarray(0, this.written);
    const padding = this.tail.endsWith('==') ? 2 : this.tail.endsWith('=') ? 1 : 0;
    return new DecodedBase64(bytes, this.mediaType, this.length, padding, this.canonical, this.overflow, this.sent);
  }

  private tellPrefix(): void {
    const head = this.head ?? '';
    this.head = null;
    const prefix = DATA_URL_PREFIX.exec(head);
    this.mediaType = prefix?.[1] ?? null;
    this.feed(prefix ? head.slice(prefix[0].length) : head);
  }

  private feed(text: string): void {
    if (/\s/.test(text)) text = text.replace(/\s+/g, '');
    if (!text) return;
    this.length += text.length;
    this.tail = text.length >= 2 ? text.slice(-2) : (this.tail + text).slice(-2);
    if (!this.canonical || this.overflow) return;
    // CASE: more text after a padded quantum ("QQ==QUJD"): not one base64 text.
    if (this.padded) {
      this.canonical = false;
      return;
    }
    const all = this.carry ? this.carry + text : text;
    const whole = all.length - (all.length % 4);
    this.carry = all.slice(whole);
    if (whole) this.decode(whole === all.length ? all : all.slice(0, whole));
  }

  /** Decodes whole quanta (a multiple of 4 characters) onto the end of the bytes. */
  private decode(quanta: string): void {
    const pad = quanta.indexOf('=');
    if (pad !== -1) {
      // '=' only in the last quantum's last two places.
      if (pad < quanta.length - 2) {
        this.canonical = false;
        return;
      }
      this.padded = true;
    }
    const most = (quanta.length / 4) * 3 - (pad === -1 ? 0 : quanta.length - pad);
    if (this.written + most > this.maxBytes) {
      this.overflow = true;
      return;
    }
    const out = this.room(this.written + most);
    const wrote = out.write(quanta, this.written, 'base64');
    if (out.toString('base64', this.written, this.written + wrote) !== quanta) this.canonical = false;
    this.written += wrote;
  }

  private room(bytes: number): Buffer {
    if (!this.out) this.out = Buffer.allocUnsafeSlow(Math.max(bytes, Math.min(this.maxBytes, this.expectedBytes)));
    if (this.out.length < bytes) {
      const larger = Buffer.allocUnsafeSlow(this.maxBytes);
      this.out.copy(larger, 0, 0, this.written);
      this.out = larger;
    }
    return this.out;
  }
}

/** Decodes a whole string with Base64Decoder, a piece at a time (no second copy of the text). */
export function decodeBase64Text(text: string, maxBytes: number): DecodedBase64 {
  const decoder = new Base64Decoder(maxBytes, Math.ceil((text.length * 3) / 4));
  for (let at = 0; at < text.length; at += PIECE_CHARS) decoder.write(text.slice(at, at + PIECE_CHARS));
  return decoder.end();
}

/** The upload's bytes (a data: URL prefix is allowed); a ValidationError on the field otherwise. */
export function decodeBase64Jpeg(image: string | DecodedBase64, rules: Base64JpegRules): Buffer {
  const { field, maxBytes } = rules;
  const tooLargeOrNotJpeg = () => ValidationError.field(field, rules.tooLargeOrNotJpeg);
  const decoded = typeof image === 'string' ? decodeBase64Text(image, maxBytes) : image;
  if (decoded.mediaType && !/^image\/(jpeg|jpg|pjpeg)$/i.test(decoded.mediaType)) throw tooLargeOrNotJpeg();
  // base64 is 4 characters for 3 bytes: the length alone tells an oversized upload.
  if (Math.floor((decoded.length * 3) / 4) - decoded.padding > maxBytes) throw tooLargeOrNotJpeg();
  if (decoded.length % 4 === 1 || !decoded.canonical) throw ValidationError.field(field, rules.notAnImage);
  const bytes = decoded.take();
  if (decoded.overflow || bytes.length > maxBytes) throw tooLargeOrNotJpeg();
  if (bytes.length < 3) throw ValidationError.field(field, rules.notAnImage);
  if (!bytes.subarray(0, 3).equals(JPEG_MAGIC)) throw tooLargeOrNotJpeg();
  return bytes;
}

/**
 * A base64 image field as its route's parser left it: a DecodedBase64 (json-base64-body-middleware.ts) or,
 * where text is allowed (a body another parser read), its text. Whether it is a JPEG of the
 * allowed size is the service's to say (decodeBase64Jpeg), after every field is checked.
 */
function imageField(acceptText: boolean) {
  return z.unknown().transform((value, ctx) => {
    if (value instanceof DecodedBase64 || (acceptText && typeof value === 'string')) {
      if ((typeof value === 'string' ? value.length : value.sent) === 0) ctx.addIssue({ code: 'custom', message: 'No file was submitted.' });
      return value;
    }
    ctx.addIssue({ code: 'invalid_type', expected: 'string', input: value, message: 'Not a valid string.' });
    return z.NEVER;
  });
}

/** Only what json-base64-body-middleware.ts decoded (the listing photo). */
export const decodedImageField = imageField(false);
/** Decoded, or text (the profile photo, also sent by PUT and form bodies, which other parsers read). */
export const base64ImageField = imageField(true);
