import type { AppContext } from '../../context';
import { createRenditionService, renditionStore, type RenditionService } from './renditions';

// The media app's service: the renditions of stored images, made once however many requests
// ask at the same moment (renditions.ts). The registry builds it once per app (apps/index.ts).

export type MediaService = RenditionService;

export function createMediaService(ctx: Pick<AppContext, 'storage' | 'config' | 'logger'>): MediaService {
  return createRenditionService({ storage: ctx.storage, renditions: renditionStore(ctx), logger: ctx.logger });
}
