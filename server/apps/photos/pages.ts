import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { AppContext } from '../../context';
import { PAGE_SIZE } from '../../../shared/constants';
import { idFromSlugSegment, urls } from '../../../shared/urls';
import { addIsland } from '../../views';
import { page, PageRedirect, type PageAnswer } from '../../http/pages/page-view';
import { absolute, canonicalRedirect } from '../../http/pages/canonical-url';
import { pagesOrFirstPage, pageWindow } from '../../http/pages/page-param';
import { whenFlag } from '../../http/pages/feature-gate';
import { listingDetail, listingPhotoPosition, type ListingDetailRow } from '../listings/queries';
import { listingPhotoViewer } from '../../../shared/photo-viewer';
import { countPhotos, listPhotos } from './queries';
import { addSurrogateKeys, surrogateKeys } from '../../http/surrogate-keys';

// A listing's photos: the list (24 to a page, 'Upload Photo' only when uploads are on) and each
// photo at its share path with 'N of M' and previous/next (spec 2 §2 "Photo viewer").
// The list is the same for everybody (the page cache serves it to members too); only
// ?upload=1, the uploader, is a member's own page: a guest is sent to log in first. After an
// upload the uploader returns to the list as ?added=<photo id>, a URL no cache holds yet (the
// plain list may be the browser's copy from before, max-age=60); the list ignores it, and its
// canonical link stays the plain list.

export function photosPages(ctx: AppContext): Router {
  const router = Router();
  const on = whenFlag(ctx, 'listings');
  const shared = 'shared-for-guests';

  // ## Listing photos
  router.get('/:type/:segment/photos/', on, whenUploading(ctx, page('private', (req, res) => photoList(ctx, req, res, true))), page(shared, (req, res) => photoList(ctx, req, res, false)));
  router.get('/:type/:segment/photos/:photoId/', on, page(shared, (req, res) => photoPage(ctx, req, res)));

  return router;
}

/** ?upload=1 (with uploads on) goes to the uploader's own handler; the plain list passes on. */
function whenUploading(ctx: AppContext, handler: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => (ctx.config.flags.photoUpload && req.query.upload === '1' ? handler(req, res, next) : next());
}

async function listingFor(ctx: AppContext, req: Request): Promise<ListingDetailRow | null> {
  const id = idFromSlugSegment(String(req.params.segment));
  if (id === null) return null;
  return (await listingDetail(ctx.db, id)) ?? null;
}

async function photoList(ctx: AppContext, req: Request, res: Response, uploading: boolean): Promise<PageAnswer> {
  const listing = await listingFor(ctx, req);
  if (!listing) return null;
  const path = urls.listingPhotos(listing.type_slug, listing.slug, listing.id);
  const moved = canonicalRedirect(req, path);
  if (moved) return moved;
  if (uploading && !req.user) return new PageRedirect(`/accounts/login?next=${encodeURIComponent(`${path}?upload=1`)}`);
  const { page, limit, offset } = pageWindow(req, PAGE_SIZE.listingPhotos);
  // The API's order (newest first, id breaking ties), so the viewer's later pages follow on.
  const [photos, count] = await Promise.all([listPhotos(ctx.db, { listingId: listing.id }, '-creation_date', { limit, offset }), countPhotos(ctx.db, { listingId: listing.id })]);
  const pages = pagesOrFirstPage(req, page, count, limit);
  // A photo's change announces its place's keys (photo-change.ts); the uploader's private page drops them (cache-policy.ts).
  addSurrogateKeys(res, [surrogateKeys.place(listing.id)]);
  const viewer = listingPhotoViewer(listing, { photos: photos.map((p) => ({ ...p, profile_name: p.author_full_name })), count }, offset, 'grid');
  if (photos.length) addIsland(res, 'photo-viewer', viewer);
  // The uploader (?upload=1, members) and, on the list, the recent-upload notice after it
  // (the island reads it from the browser's storage, so the list stays the same for everybody).
  const uploader = ctx.config.flags.photoUpload;
  if (uploader) {
    addIsland(res, 'photo-uploader', {
      listing: { id: listing.id, name: listing.name },
      upload: uploading,
      maxMb: ctx.config.limits.photoUploadMaxMb,
      completionPath: path,
    });
  }
  return {
    template: 'photos/list.njk',
    listing,
    photos: viewer.photos,
    count,
    page,
    pages,
    path,
    uploader,
    uploading,
    pageTitle: `Photos of ${listing.name}`,
    pageDescription: `${count} ${count === 1 ? 'photo' : 'photos'} of ${listing.name}, ${listing.address}.`,
    canonicalUrl: absolute(ctx, path) + (page > 1 ? `?page=${page}` : ''),
  };
}

async function photoPage(ctx: AppContext, req: Request, res: Response): Promise<PageAnswer> {
  if (!/^\d{1,9}$/.test(String(req.params.photoId))) return null;
  const listing = await listingFor(ctx, req);
  if (!listing) return null;
  const photoId = Number(req.params.photoId);
  const path = urls.photo(listing.type_slug, listing.slug, listing.id, photoId);
  const moved = canonicalRedirect(req, path);
  if (moved) return moved;
  const position = await listingPhotoPosition(ctx.db, listing.id, photoId);
  if (!position) return null;
  addSurrogateKeys(res, [surrogateKeys.place(listing.id)]);
  const photoPath = (id: number) => urls.photo(listing.type_slug, listing.slug, listing.id, id);
  return {
    template: 'photos/detail.njk',
    listing,
    ...position,
    previousPath: position.previousId ? photoPath(position.previousId) : null,
    nextPath: position.nextId ? photoPath(position.nextId) : null,
    // Closing the viewer returns to the page of the list this photo is on.
    closedPath: urls.listingPhotos(listing.type_slug, listing.slug, listing.id) + (position.index > PAGE_SIZE.listingPhotos ? `?page=${Math.ceil(position.index / PAGE_SIZE.listingPhotos)}` : ''),
    pageTitle: `${position.photo.title || 'Photo'} – ${listing.name} (${position.index} of ${position.count})`,
    pageDescription: position.photo.description || `Photo ${position.index} of ${position.count} of ${listing.name}.`,
    canonicalUrl: absolute(ctx, path),
  };
}
