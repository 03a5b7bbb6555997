import crypto from 'node:crypto';
import sharp from 'sharp';

// Real images for tests and benchmarks, made with sharp (no binary files in the repository).

/** A solid JPEG with EXIF orientation, a GPS position and a copyright note, as phones write. */
export async function jpegWithGps(width = 60, height = 40, orientation = 6): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c0392b' } })
    .jpeg({ quality: 90 })
    .withMetadata({ orientation })
    .withExifMerge({ IFD0: { Copyright: 'secret-owner' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '43/1 39/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '79/1 23/1 0/1' } })
    .toBuffer();
}

export async function pngImage(width = 40, height = 30): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 128, b: 255, alpha: 0.5 } } }).png().toBuffer();
}

export async function jpegImage(width = 400, height = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#2980b9' } }).jpeg({ quality: 80 }).toBuffer();
}

/**
 * A JPEG of random noise just under `targetBytes` (noise does not compress, so the size is
 * set by the pixel count): the worst case for an upload of that size.
 */
export async function noiseJpeg(targetBytes: number): Promise<Buffer> {
  const encode = async (w: number, h: number) =>
    sharp(crypto.randomBytes(w * h * 3), { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 92 }).toBuffer();
  let width = 1600;
  let height = 1200;
  let out = await encode(width, height);
  for (let i = 0; i < 6 && (out.length > targetBytes || out.length < targetBytes * 0.97); i++) {
    const scale = Math.sqrt((targetBytes * 0.985) / out.length);
    width = Math.max(16, Math.round(width * scale));
    height = Math.max(16, Math.round(height * scale));
    out = await encode(width, height);
  }
  return out;
}
