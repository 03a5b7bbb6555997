import type { AppContext } from '../../context';
import { ValidationError } from '../../http/errors';
import { newKey } from '../../storage/storage';
import { LIMITS } from '../../../shared/constants';
import { decodeBase64Jpeg, type DecodedBase64 } from '../media/base64-jpeg';
import { normaliseImage, NotAnImageError, readImageHeader } from '../media/ingest';
import { purgeRenditions, renditionStore } from '../media/renditions';
import { queueRenditionWarmUp } from '../media/warm-renditions-job';
import type { Member } from './member';
import { setAvatar } from './queries';

// The profile photo (spec 1 §3 avatar / avatar_url, §5): the dashboard's cropper sends a square
// JPEG as base64 in PATCH /api/v2/profiles/me/ {avatar}; null removes it. It is decoded for real,
// stored re-encoded without metadata, and its 80x80 rendition (IMAGE_SIZES.avatar, what every
// page shows) is made by a job queued at once (media.warm-renditions), or else on first request.
// The previous photo and its renditions go.

export const avatarMessages = {
  tooLargeOrNotJpeg: 'We can only accept JPG photos that are 6mb or less. Please try again with a different image.',
  notAnImage: 'Upload a valid image. The file you uploaded was either not an image or a corrupted image.',
};

/** A profile photo is never shown larger than this; the cropper's output is scaled down to it. */
export const STORED_AVATAR_MAX_SIDE = 400;
export const STORED_AVATAR_QUALITY = 88;
const AVATAR_PREFIX = 'avatars';

export function createAvatarService(ctx: Pick<AppContext, 'db' | 'storage' | 'config' | 'logger' | 'jobs'>) {
  const { db, storage, logger } = ctx;
  const renditions = renditionStore(ctx);
  const rules = { field: 'avatar', maxBytes: LIMITS.profilePhotoBytes, ...avatarMessages };
  const asFieldError = (err: unknown) => (err instanceof NotAnImageError ? ValidationError.field('avatar', avatarMessages.notAnImage) : err);

  async function forget(key: string | null): Promise<void> {
    // Only photos this service stored: a seeded or imported avatar may share its file.
    if (!key?.startsWith(`${AVATAR_PREFIX}/`)) return;
    await Promise.all([storage.delete(key), purgeRenditions(renditions, key)]).catch((err) => logger.warn({ err, key }, 'profiles: could not remove an old avatar'));
  }

  return {
    /** Stores the new photo (or none) and answers the member's new avatar key. */
    async replace(member: Member, image: string | DecodedBase64 | null): Promise<string | null> {
      if (image === null) {
        await setAvatar(db, member.id, null);
        await forget(member.avatar);
        return null;
      }
      const bytes = decodeBase64Jpeg(image, rules);
      const header = await readImageHeader(bytes).catch((err) => Promise.reject(asFieldError(err)));
      // CASE: JPEG magic bytes but another format inside.
      if (header.format !== 'jpeg') throw ValidationError.field('avatar', avatarMessages.tooLargeOrNotJpeg);
      const stored = await normaliseImage(bytes, { maxSide: STORED_AVATAR_MAX_SIDE, quality: STORED_AVATAR_QUALITY }).catch((err) => Promise.reject(asFieldError(err)));
      const key = newKey(AVATAR_PREFIX, stored.extension);
      await storage.put(key, stored.data, 'image/jpeg');
      try {
        await setAvatar(db, member.id, key);
      } catch (err) {
        await storage.delete(key);
        throw err;
      }
      await queueRenditionWarmUp(ctx, key, 'avatar');
      if (member.avatar !== key) await forget(member.avatar);
      return key;
    },
  };
}

export type AvatarService = ReturnType<typeof createAvatarService>;
