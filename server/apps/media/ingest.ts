import sharp from 'sharp';
import { MAX_INPUT_PIXELS } from './renditions';
import { withImageWork } from './image-work';

// Turning an uploaded file into what we store: decoded for real (a renamed PNG or random bytes
// never pass as a JPEG), turned upright by its EXIF orientation, and re-encoded without any
// metadata (EXIF, GPS, XMP, ICC comments: sharp keeps none unless asked), no larger than a
// bound so later renditions decode quickly.

export class NotAnImageError extends Error {}

export interface DecodedImage {
  format: string;
  width: number;
  height: number;
  hasAlpha: boolean;
}

/** Reads the image header only (cheap): its format and size. Throws NotAnImageError. */
export async function readImageHeader(input: Buffer): Promise<DecodedImage> {
  try {
    const meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    if (!meta.format || !meta.width || !meta.height) throw new NotAnImageError('no image header');
    if (meta.width * meta.height > MAX_INPUT_PIXELS) throw new NotAnImageError('too many pixels');
    return { format: meta.format, width: meta.width, height: meta.height, hasAlpha: Boolean(meta.hasAlpha) };
  } catch (err) {
    if (err instanceof NotAnImageError) throw err;
    throw new NotAnImageError((err as Error).message);
  }
}

export interface StoredImage {
  data: Buffer;
  format: 'jpeg' | 'png';
  extension: 'jpg' | 'png';
  width: number;
  height: number;
}

export interface NormaliseOptions {
  /** The longest side kept; larger images are scaled down. */
  maxSide: number;
  quality: number;
  /** Keep transparency as PNG; otherwise everything becomes JPEG. */
  keepAlpha?: boolean;
}

/**
 * Decodes the whole image (so a truncated or corrupt file fails here, with NotAnImageError:
 * sharp's default failOn 'warning' refuses "premature end of JPEG file") and re-encodes it.
 */
export async function normaliseImage(input: Buffer, { maxSide, quality, keepAlpha = false }: NormaliseOptions): Promise<StoredImage> {
  const header = await readImageHeader(input);
  const asPng = keepAlpha && header.hasAlpha;
  let encoded;
  try {
    // In an image-work slot: a 48-megapixel photo decodes to ~140 MB of pixels (a JPEG is
    // shrunk on load when it is much larger than maxSide), so only a few decode at once.
    encoded = await withImageWork(() => {
      const pipeline = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
        .rotate()
        .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true });
      return asPng
        ? pipeline.png({ compressionLevel: 8 }).toBuffer({ resolveWithObject: true })
        : pipeline.flatten({ background: '#ffffff' }).jpeg({ quality, progressive: true }).toBuffer({ resolveWithObject: true });
    });
  } catch (err) {
    throw new NotAnImageError((err as Error).message);
  }
  const { data, info } = encoded;
  return { data, format: asPng ? 'png' : 'jpeg', extension: asPng ? 'png' : 'jpg', width: info.width, height: info.height };
}

export type CroppingMode = 'aspect-fill' | 'aspect-fit';

/**
 * The size an image is scaled to for a box: aspect-fill covers the box (one side equals it,
 * the other overflows, and the form lets the member slide it into place), aspect-fit fits
 * inside it. Capped so a panorama cannot ask for a giant thumbnail.
 */
export function boxedSize(width: number, height: number, boxWidth: number, boxHeight: number, mode: CroppingMode, cap = 2000): { width: number; height: number } {
  const scale = mode === 'aspect-fill' ? Math.max(boxWidth / width, boxHeight / height) : Math.min(boxWidth / width, boxHeight / height);
  return { width: Math.max(1, Math.min(cap, Math.round(width * scale))), height: Math.max(1, Math.min(cap, Math.round(height * scale))) };
}
