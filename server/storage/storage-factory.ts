import type { Config } from '../config';
import { createS3Storage } from './s3-store';
import { createLocalStorage, type Storage } from './storage';

/** The media store the config asks for (MEDIA_STORE): DATA_DIR/media, or an S3 bucket. */
export function createStorage(config: Pick<Config, 'media' | 'mediaDir'>): Storage {
  const media = config.media;
  if (media.store === 's3') return createS3Storage(media);
  return createLocalStorage(config.mediaDir);
}
