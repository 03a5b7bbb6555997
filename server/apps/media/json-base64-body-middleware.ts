import zlib from 'node:zlib';
import type { Readable, Transform } from 'node:stream';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { HttpError, PayloadTooLargeError } from '../../http/errors';
import { Base64Decoder, type DecodedBase64 } from './base64-jpeg';

// A JSON body parser for uploads sent as base64 text in one field (POST /api/v2/photos/
// {image: "data:image/jpeg;base64,..."}), which never holds that text: the field's characters
// go to a Base64Decoder as each piece of the body arrives, so a 6 MB photo (~8.4 MB of JSON)
// costs one 6 MB Buffer. express.json would hold the body's bytes, the body as a string, the
// parsed field and then the decoded Buffer: ~30 MB a photo, most of it on V8's heap until a
// full collection, which under 20 concurrent uploads came to ~160 MB of heap.
//
// Everything else in the body (the other fields, the JSON around them) is kept as it came, with
// the field's string left empty, and parsed by JSON.parse at the end: the same syntax rules and
// error messages as express.json, and the body parsed is the same shape. The field's value in
// req.body is then a DecodedBase64 (base64-jpeg.ts) when it was a string.

export interface JsonBase64BodyOptions {
  /** The top-level field whose string is base64 (`image`). */
  field: string;
  /** Decoded bytes kept of it; past them it is only counted (decodeBase64Jpeg refuses it). */
  maxBytes: number;
  /** The whole body, as express.json's limit: past it, 413. */
  limitBytes: number;
  /** The JSON besides the field, held as text until parsed: past it, 413 (default 1 MB, the app's JSON limit). */
  restBytes?: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ESCAPES: Record<number, string> = { 0x22: '"', 0x5c: '\\', 0x2f: '/', 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t' };
/** A key longer than this (as sent, escapes included) is not the field's. */
const MAX_KEY_BYTES = 128;

const syntaxError = (message: string) => new HttpError(400, `JSON parse error - ${message}`);

/** Where the scanner is: in the JSON's structure, in a key of the top object, in the field's string, or in another string. */
type Place = 'structure' | 'key' | 'field' | 'string';

/**
 * Reads a JSON text given in pieces, streaming one top-level field's string to a Base64Decoder
 * and keeping the rest. Only as much of JSON as finding that string needs is understood here:
 * strings (to know where they end), nesting, keys and values of the top object.
 */
export class JsonBase64Scanner {
  private place: Place = 'structure';
  private depth = 0;
  private topIsObject = false;
  /** In the top object: the next string is a key. */
  private expectKey = false;
  /** In the top object: between a key's ':' and the first character of its value. */
  private awaitingValue = false;
  private key: number[] | null = [];
  private keyIsField = false;
  private escaped = false;
  /** Hex digits of a \uXXXX escape in the field, while they arrive. */
  private unicode: string | null = null;
  private rest: Buffer[] = [];
  private restLength = 0;
  private decoder: Base64Decoder | null = null;
  private decoded: DecodedBase64 | null = null;
  /** The field's characters read from the current chunk, given to the decoder together. */
  private pending: string[] = [];

  constructor(
    private readonly options: JsonBase64BodyOptions,
    /** What the field may decode to at most (from the body's declared length), to size its Buffer. */
    private readonly expectedBytes = options.maxBytes,
  ) {}

  write(chunk: Buffer): void {
    let keepFrom = this.place === 'field' ? -1 : 0;
    let i = 0;
    while (i < chunk.length) {
      if (this.place === 'field') {
        i = this.fieldString(chunk, i);
        // Its closing quote (if this chunk has it) is kept; what follows is read as before.
        if (this.place !== 'field') keepFrom = i - 1;
        continue;
      }
      const b = chunk[i++];
      if (this.place !== 'structure') {
        this.inString(b);
        continue;
      }
      if (b === QUOTE) {
        if (this.depth === 1 && this.topIsObject && this.expectKey) {
          this.place = 'key';
          this.expectKey = false;
          this.key = [];
        } else if (this.depth === 1 && this.awaitingValue && this.keyIsField) {
          // The field's string: its characters are decoded, not kept ("" stays in its place).
          this.keep(chunk, keepFrom, i);
          keepFrom = -1;
          this.place = 'field';
          this.awaitingValue = false;
          this.decoder = new Base64Decoder(this.options.maxBytes, this.expectedBytes);
          this.decoded = null;
        } else {
          this.place = 'string';
          this.awaitingValue = false;
        }
      } else if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) {
        // whitespace between tokens
      } else if (b === 0x3a /* : */) {
        if (this.depth === 1) this.awaitingValue = true;
      } else if (b === 0x2c /* , */) {
        if (this.depth === 1 && this.topIsObject) this.expectKey = true;
      } else {
        // CASE: the field is given again with another kind of value: the last one counts, as in JSON.parse.
        if (this.depth === 1 && this.awaitingValue && this.keyIsField) this.decoded = null;
        if (this.depth === 1) this.awaitingValue = false;
        if (b === 0x7b /* { */ || b === 0x5b /* [ */) {
          if (this.depth === 0) {
            this.topIsObject = b === 0x7b;
            this.expectKey = this.topIsObject;
          }
          this.depth += 1;
        } else if (b === 0x7d /* } */ || b === 0x5d /* ] */) {
          this.depth -= 1;
        }
      }
    }
    if (this.place === 'field') this.decoder!.write(this.pending.splice(0).join(''));
    this.keep(chunk, keepFrom, chunk.length);
  }

  /** The body: JSON.parse of what was kept, with the field's string replaced by its DecodedBase64. */
  end(): unknown {
    if (this.restLength === 0) return {};
    const text = Buffer.concat(this.rest).toString('utf8');
    this.rest = [];
    const first = /\S/.exec(text)?.[0];
    // As express.json (strict): a body is an object or an array.
    if (first !== '{' && first !== '[') throw syntaxError(first ? `Unexpected token '${first}', "${text.slice(0, 20)}" is not valid JSON` : 'Unexpected end of JSON input');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (err) {
      throw syntaxError((err as Error).message);
    }
    if (this.decoded && body && typeof body === 'object' && !Array.isArray(body)) (body as Record<string, unknown>)[this.options.field] = this.decoded;
    return body;
  }

  /** Reads the field's string from `i`: plain runs go to the decoder whole, escapes one by one. Answers where it stopped. */
  private fieldString(chunk: Buffer, i: number): number {
    while (i < chunk.length) {
      if (this.unicode !== null) {
        this.unicode += String.fromCharCode(chunk[i++]);
        if (this.unicode.length < 4) continue;
        if (!/^[0-9a-f]{4}$/i.test(this.unicode)) throw syntaxError(`Bad Unicode escape in string literal`);
        this.pending.push(String.fromCharCode(parseInt(this.unicode, 16)));
        this.unicode = null;
        continue;
      }
      if (this.escaped) {
        const b = chunk[i++];
        this.escaped = false;
        if (b === 0x75 /* u */) this.unicode = '';
        else if (ESCAPES[b] !== undefined) this.pending.push(ESCAPES[b]);
        else throw syntaxError('Bad escaped character in string literal');
        continue;
      }
      const quote = chunk.indexOf(QUOTE, i);
      const backslash = chunk.indexOf(BACKSLASH, i);
      const stop = Math.min(quote === -1 ? chunk.length : quote, backslash === -1 ? chunk.length : backslash);
      if (stop > i) {
        const run = chunk.toString('latin1', i, stop);
        // eslint-disable-next-line no-control-regex -- JSON forbids raw control characters in a string
        if (/[\x00-\x1f]/.test(run)) throw syntaxError('Bad control character in string literal');
        this.pending.push(run);
      }
      i = stop;
      if (i === chunk.length) break;
      i += 1;
      if (stop === backslash) {
        this.escaped = true;
        continue;
      }
      this.decoder!.write(this.pending.splice(0).join(''));
      this.decoded = this.decoder!.end();
      this.decoder = null;
      this.place = 'structure';
      return i;
    }
    return i;
  }

  /** One byte of a key or another string: only where it ends matters (and a key's bytes). */
  private inString(b: number): void {
    if (this.place === 'key' && this.key && this.key.length < MAX_KEY_BYTES) this.key.push(b);
    else if (this.place === 'key') this.key = null;
    if (this.escaped) {
      this.escaped = false;
      return;
    }
    if (b === BACKSLASH) this.escaped = true;
    else if (b === QUOTE) {
      if (this.place === 'key') this.keyIsField = this.keyName() === this.options.field;
      this.place = 'structure';
    }
  }

  private keyName(): string | null {
    if (!this.key) return null;
    const raw = Buffer.from(this.key.slice(0, -1)).toString('utf8');
    if (!raw.includes('\\')) return raw;
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      return null; // the body's JSON.parse says what is wrong with it
    }
  }

  private keep(chunk: Buffer, from: number, to: number): void {
    if (from < 0 || to <= from) return;
    this.restLength += to - from;
    if (this.restLength > (this.options.restBytes ?? 1024 * 1024)) throw new PayloadTooLargeError();
    // A copy: a slice would keep the whole chunk, base64 and all, alive.
    this.rest.push(Buffer.from(chunk.subarray(from, to)));
  }
}

/** What inflates the request's body as express.json would (gzip, deflate, br); null when it is sent as it is. */
function inflater(req: Request): Transform | null {
  const encoding = String(req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding === 'identity') return null;
  const inflate = encoding === 'gzip' ? zlib.createGunzip() : encoding === 'deflate' ? zlib.createInflate() : encoding === 'br' ? zlib.createBrotliDecompress() : null;
  if (!inflate) throw new HttpError(415, `unsupported content encoding "${encoding}"`);
  return inflate;
}

/**
 * Middleware: parses a JSON body (Content-Type application/json, UTF-8) into req.body with
 * `field`'s string decoded as it arrives (see above). Other requests pass untouched, as with
 * express.json. Errors are express.json's: 400 for bad JSON, 413 past a limit, 415 for a
 * charset or encoding it does not read; the rest of the body is read off first.
 */
export function jsonBase64Body(options: JsonBase64BodyOptions): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!req.is('application/json')) return next();
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase() ?? 'utf-8';
    const declared = Number(req.headers['content-length']);
    let inflate: Transform | null;
    try {
      if (charset !== 'utf-8' && charset !== 'utf8') throw new HttpError(415, `unsupported charset "${charset.toUpperCase()}"`);
      if (declared > options.limitBytes) throw new PayloadTooLargeError();
      inflate = inflater(req);
    } catch (err) {
      return readOff(req, () => next(err));
    }
    const stream: Readable = inflate ? req.pipe(inflate) : req;
    // The field decodes to at most 3/4 of the body's declared bytes (not known when inflated).
    const expected = !inflate && Number.isFinite(declared) ? Math.floor((declared * 3) / 4) + 3 : options.maxBytes;
    const scanner = new JsonBase64Scanner(options, Math.min(options.maxBytes, expected));
    let received = 0;
    let done = false;
    const finish = (err: unknown, body?: unknown) => {
      if (done) return;
      done = true;
      stream.removeListener('data', onData);
      if (err) {
        if (inflate) {
          req.unpipe(inflate);
          inflate.destroy();
        }
        return readOff(req, () => next(err));
      }
      req.body = body;
      next();
    };
    const onData = (chunk: Buffer) => {
      try {
        received += chunk.length;
        if (received > options.limitBytes) throw new PayloadTooLargeError();
        scanner.write(chunk);
      } catch (err) {
        finish(err);
      }
    };
    stream.on('data', onData);
    stream.once('end', () => {
      try {
        finish(undefined, scanner.end());
      } catch (err) {
        finish(err);
      }
    });
    stream.once('error', (err) => finish(new HttpError(400, `Invalid body: ${err.message}`)));
    req.once('aborted', () => finish(new HttpError(400, 'request aborted')));
  };
}

/** Reads off (and drops) what is left of the body, then answers: the client gets to read the answer. */
function readOff(req: Request, then: () => void): void {
  if (req.readableEnded || req.destroyed) return then();
  req.resume();
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    then();
  };
  req.once('end', once);
  req.once('close', once);
}
