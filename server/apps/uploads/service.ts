import multer from 'multer';
import sharp from 'sharp';
import type { AppContext } from '../../context';
import { ValidationError } from '../../http/errors';
import { newKey, type Storage } from '../../storage/storage';
import { absoluteUrl } from '../../../shared/urls';
import { imageUrl } from '../../../shared/format/image-url';
import { boxedSize, normaliseImage, NotAnImageError } from '../media/ingest';
import { withImageWork } from '../media/image-work';
import { IMAGE_EXTENSIONS, type ImageUploadFields } from './schemas';

export const messages = {
  noFile: 'No file was submitted.',
  unsupportedType: (ext: string) => `* Unsupported file type ".${ext}"`,
  notImageType: 'Only image files can be uploaded.',
  notAnImage: 'Upload a valid image. The file you uploaded was either not an image or a corrupted image.',
};

/** The event image guidance says "under about 5 MB"; the server allows twice that. */
export const IMAGE_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/** Uploaded images are kept at most this large; the form shows them at 300x200. */
export const UPLOADED_IMAGE_MAX_SIDE = 2400;

/** One image file under any field name, bounded in size and count. */
export const imageUploadParser = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: IMAGE_UPLOAD_MAX_BYTES, files: 1, fields: 20, parts: 21, fieldSize: 8 * 1024 },
}).any();

export interface ImageUploadResult {
  thumbnail_dimensions: { width: number; height: number };
  uploaded_image_url: string;
  thumbnail_url: string;
}

/** Member uploads live under their member id, so a form can only use its own member's images. */
export function uploadKeyPrefix(memberId: number): string {
  return `uploads/m${memberId}`;
}

/** The storage key behind an uploaded_image_url this site answered, if it is that member's. */
export function uploadKeyFromUrl(url: string, memberId: number, siteUrl: string): string | null {
  let path = url.trim();
  if (path.startsWith(siteUrl)) path = path.slice(siteUrl.length);
  const m = /^\/media\/([^?#]+)$/.exec(path);
  if (!m) return null;
  const key = m[1].split('/').map(decodeURIComponent).join('/');
  return key.startsWith(`${uploadKeyPrefix(memberId)}/`) && !key.includes('..') ? key : null;
}

function extensionOfName(name: string): string {
  const m = /\.([^./\\]+)$/.exec(name);
  return m ? m[1].toLowerCase() : '';
}

export interface StoredUpload {
  key: string;
  thumbnailKey: string;
  response: ImageUploadResult;
}

/**
 * Both files or neither: one after the other, and when the second fails (a full disk) the first
 * goes again, so no image is left without its thumbnail or the other way round.
 */
async function storeBoth(storage: Storage, ...files: Array<[string, Buffer]>): Promise<void> {
  const written: string[] = [];
  try {
    for (const [key, data] of files) {
      await storage.put(key, data);
      written.push(key);
    }
  } catch (err) {
    await Promise.all(written.map((key) => storage.delete(key).catch(() => undefined)));
    throw err;
  }
}

export function createImageUploadService(ctx: Pick<AppContext, 'storage' | 'config'>) {
  const { storage, config } = ctx;
  return {
    /**
     * Stores the image upright and without metadata, plus its thumbnail scaled for the box
     * (aspect-fill covers it; the form then positions it), and answers their URLs.
     */
    async store(memberId: number, file: Express.Multer.File | undefined, fields: ImageUploadFields): Promise<StoredUpload> {
      if (!file) throw ValidationError.field('image', messages.noFile);
      const ext = extensionOfName(file.originalname);
      if (!(IMAGE_EXTENSIONS as readonly string[]).includes(ext)) throw ValidationError.field('image', messages.unsupportedType(ext));
      if (!file.mimetype.startsWith('image/')) throw ValidationError.field('image', messages.notImageType);
      let stored;
      try {
        stored = await normaliseImage(file.buffer, { maxSide: UPLOADED_IMAGE_MAX_SIDE, quality: 88, keepAlpha: true });
      } catch (err) {
        if (err instanceof NotAnImageError) throw ValidationError.field('image', messages.notAnImage);
        throw err;
      }
      const size = boxedSize(stored.width, stored.height, fields.box_width, fields.box_height, fields.cropping_mode);
      const thumbnail = await withImageWork(() => sharp(stored.data).resize(size.width, size.height, { fit: 'fill' }).toFormat(stored.format, { quality: 85 }).toBuffer());
      const key = newKey(uploadKeyPrefix(memberId), stored.extension);
      const thumbKey = key.replace(/\.(\w+)$/, '-thumb.$1');
      await storeBoth(storage, [key, stored.data], [thumbKey, thumbnail]);
      return {
        key,
        thumbnailKey: thumbKey,
        response: {
          thumbnail_dimensions: size,
          uploaded_image_url: absoluteUrl(config.site.url, imageUrl(key)),
          thumbnail_url: absoluteUrl(config.site.url, imageUrl(thumbKey)),
        },
      };
    },
  };
}

export type ImageUploadService = ReturnType<typeof createImageUploadService>;
