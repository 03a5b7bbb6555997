import crypto from 'node:crypto';
import { HttpError } from '../../http/errors';
import { Base64Decoder, decodeBase64Jpeg, DecodedBase64, decodeBase64Text } from './base64-jpeg';
import { JsonBase64Scanner, type JsonBase64BodyOptions } from './json-base64-body-middleware';

// The photo route's body parser decodes the image's base64 as the body arrives: the same body
// as express.json would give, but no copy of the base64 text is ever held, nor parsed.

const options: JsonBase64BodyOptions = { field: 'image', maxBytes: 1024 * 1024, limitBytes: 2 * 1024 * 1024 };

/** Feeds `body` to a scanner in pieces of `size` bytes and answers what it parsed. */
function scan(body: string | Buffer, size: number, opts: Partial<JsonBase64BodyOptions> = {}): unknown {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  const scanner = new JsonBase64Scanner({ ...options, ...opts });
  for (let at = 0; at < bytes.length; at += size) scanner.write(bytes.subarray(at, at + size));
  return scanner.end();
}

const jpegLike = (n: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), crypto.randomBytes(n - 3)]);
const SIZES = [1, 3, 7, 64, 65_536];

describe('JsonBase64Scanner', () => {
  test.each(SIZES)('decodes the field and parses the rest, in pieces of %i bytes', (size) => {
    const photo = jpegLike(40_000);
    const body = JSON.stringify({ title: 'Patio "east" \\ side', image: `data:image/jpeg;base64,${photo.toString('base64')}`, listing: 12, extra: { image: 'nested stays', list: [1, 'two', null] } });
    const parsed = scan(body, size) as Record<string, unknown>;
    expect(parsed.image).toBeInstanceOf(DecodedBase64);
    const image = parsed.image as DecodedBase64;
    expect(image.mediaType).toBe('image/jpeg');
    expect(image.canonical).toBe(true);
    expect(image.bytes.equals(photo)).toBe(true);
    expect({ ...parsed, image: undefined }).toEqual({ title: 'Patio "east" \\ side', image: undefined, listing: 12, extra: { image: 'nested stays', list: [1, 'two', null] } });
  });

  test.each(SIZES)('reads escapes in the field (\\/, \\n, \\u0041) as JSON.parse does, in pieces of %i bytes', (size) => {
    const photo = jpegLike(3000);
    const text = photo.toString('base64');
    // What PHP's json_encode sends (escaped slashes), with lines as MIME writes them.
    const escaped = text.replace(/(.{76})/g, '$1\\r\\n').replace(/\//g, '\\/').replace(/A/g, '\\u0041');
    const body = Buffer.from(`{"listing":"3","image":"${escaped}"}`);
    const image = (scan(body, size) as { image: DecodedBase64 }).image;
    expect(image.canonical).toBe(true);
    expect(image.bytes.equals(photo)).toBe(true);
    expect(decodeBase64Jpeg(image, { field: 'image', maxBytes: 5000, tooLargeOrNotJpeg: 'big', notAnImage: 'junk' }).equals(photo)).toBe(true);
  });

  test('never hands the base64 text to JSON.parse, and holds no more than maxBytes of it', () => {
    const photo = jpegLike(900_000);
    const body = JSON.stringify({ image: photo.toString('base64'), title: 'Big', listing: 1 });
    const parse = jest.spyOn(JSON, 'parse');
    try {
      const image = (scan(body, 65_536) as { image: DecodedBase64 }).image;
      expect(image.bytes.equals(photo)).toBe(true);
      // The one Buffer it decoded into is the photo's size, not the text's.
      expect(image.bytes.buffer.byteLength).toBeLessThanOrEqual(options.maxBytes);
      expect(parse).toHaveBeenCalled();
      expect(Math.max(...parse.mock.calls.map(([text]) => String(text).length))).toBeLessThan(100);
    } finally {
      parse.mockRestore();
    }
  });

  test('past maxBytes it only counts: nothing larger than the limit is allocated', () => {
    const text = crypto.randomBytes(300_000).toString('base64');
    const image = (scan(JSON.stringify({ image: text }), 4096, { maxBytes: 100_000 }) as { image: DecodedBase64 }).image;
    expect(image.overflow).toBe(true);
    expect(image.bytes.length).toBe(0);
    expect(image.length).toBe(text.length);
    expect(() => decodeBase64Jpeg(image, { field: 'image', maxBytes: 100_000, tooLargeOrNotJpeg: 'too large', notAnImage: 'junk' })).toThrow('too large');
  });

  test('the last of a repeated field counts, as in JSON.parse; a field that is no string stays as it is', () => {
    expect(scan('{"image":"QUJD","image":42}', 5)).toEqual({ image: 42 });
    const again = scan('{"image":42,"image":"QUJD"}', 5) as { image: DecodedBase64 };
    expect(again.image.bytes.toString()).toBe('ABC');
    expect(scan('{"image":null,"listing":1}', 2)).toEqual({ image: null, listing: 1 });
    expect(scan('{"image":["QUJD"]}', 2)).toEqual({ image: ['QUJD'] });
    expect(scan('{"\\u0069mage":"QUJD"}', 3)).toEqual({ image: expect.any(DecodedBase64) });
    expect(scan('[{"image":"QUJD"}]', 3)).toEqual([{ image: 'QUJD' }]);
    expect(scan('', 3)).toEqual({});
  });

  test.each([
    ['{"image": ', 'Unexpected end'],
    ['{"image":"QUJD', 'Unterminated string'],
    ['{"image":"QU\tJD"}', 'Bad control character'],
    ['{"image":"QU\\xJD"}', 'Bad escaped character'],
    ['{"image":"QU\\u00zzJD"}', 'Bad Unicode escape'],
    ['{"image" "QUJD"}', 'JSON parse error'],
    ['"QUJD"', 'JSON parse error'],
    ['   ', 'JSON parse error'],
    ['{"image":"QUJD",}', 'JSON parse error'],
  ])('%j is a 400 JSON parse error (%s)', (body, message) => {
    let error: unknown;
    try {
      scan(body, 4);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    expect((error as HttpError).message).toMatch(/^JSON parse error - /);
    expect((error as HttpError).message).toContain(message);
  });

  test('the JSON around the field is held up to restBytes: past that, 413', () => {
    const body = JSON.stringify({ image: 'QUJD', title: 'x'.repeat(5000) });
    expect(() => scan(body, 1000, { restBytes: 4096 })).toThrow(expect.objectContaining({ status: 413 }));
    expect(scan(body, 1000, { restBytes: 8192 })).toMatchObject({ title: 'x'.repeat(5000) });
  });
});

describe('decodeBase64Jpeg tells clean base64 from junk without a second copy of the text', () => {
  const rules = { field: 'image', maxBytes: 64, tooLargeOrNotJpeg: 'too large or not a JPEG', notAnImage: 'not an image' };
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
  const b64 = jpeg.toString('base64');

  test.each([
    ['plain', b64],
    ['unpadded', b64.replace(/=+$/, '')],
    ['with a data: URL prefix', `data:image/jpeg;base64,${b64}`],
    ['with whitespace', ` ${b64.slice(0, 4)}\n${b64.slice(4)}\r\n`],
  ])('%s: decoded', (_name, text) => {
    expect(decodeBase64Jpeg(text, rules).equals(jpeg)).toBe(true);
  });

  test.each([
    ['a PNG by its prefix', `data:image/png;base64,${b64}`, 'too large or not a JPEG'],
    ['longer than the limit', Buffer.concat([jpeg, Buffer.alloc(100)]).toString('base64'), 'too large or not a JPEG'],
    ['not a JPEG', Buffer.from('GIF89a-whatever').toString('base64'), 'too large or not a JPEG'],
    ['junk characters', `${b64.slice(0, 4)}%%%%${b64.slice(4)}`, 'not an image'],
    ['URL-safe alphabet', '_9j_4AECAw==', 'not an image'],
    ['non-zero last bits', b64.replace(/.(=*)$/, 'B$1'), 'not an image'],
    ['text after padding', `${b64}QUJD`, 'not an image'],
    ['one character past whole bytes', `${b64.replace(/=+$/, '')}AAA`, 'not an image'],
    ['a prefix only', 'data:image/jpeg;base64,', 'not an image'],
  ])('%s: refused', (_name, text, message) => {
    expect(() => decodeBase64Jpeg(text, rules)).toThrow(message);
  });

  test('a text given whole is decoded a piece at a time into one Buffer of its size', () => {
    const photo = jpegLike(200_000);
    const decoded = decodeBase64Text(photo.toString('base64'), 1024 * 1024);
    expect(decoded.bytes.equals(photo)).toBe(true);
    expect(decoded.bytes.buffer.byteLength).toBeLessThan(200_010);
  });

  test('a decoder given characters one at a time gives the same bytes', () => {
    const photo = jpegLike(999);
    const decoder = new Base64Decoder(2000);
    for (const ch of `data:image/jpeg;base64,${photo.toString('base64')}`) decoder.write(ch);
    const decoded = decoder.end();
    expect(decoded.mediaType).toBe('image/jpeg');
    expect(decoded.bytes.equals(photo)).toBe(true);
  });
});
