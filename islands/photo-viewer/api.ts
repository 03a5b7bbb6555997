import { api } from '../common/api';
import type { Page, PhotoDTO } from '../../shared/dto';

// GET /api/v2/photos/?listing=&offset=&limit=: a listing's photos, newest first, as the
// photo list page prints them (spec 1 §7; 24 to a page for one listing).
export const photoViewerApi = {
  listingPhotos: (listingId: number, offset: number, limit: number) => api.get<Page<PhotoDTO>>('/api/v2/photos/', { listing: listingId, offset: offset || undefined, limit }),
};

export type PhotoViewerApi = typeof photoViewerApi;
