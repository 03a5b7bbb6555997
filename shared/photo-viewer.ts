import type { PhotoDTO } from './dto';
import { imageUrl, sizedImageUrl } from './format/image-url';
import { urls } from './urls';
import { PAGE_SIZE } from './constants';

// The photo viewer's data (spec 2 §2 "Photo viewer"), built the same way on both sides: the
// server prints the photos a page shows (the listing page's strip, a page of the photo list)
// and the island turns the photos API's answers into the same shape as it moves past them.

export interface ViewerPhoto {
  id: number;
  /** /{type}/{slug}-{id}/photos/{photoId}/: the no-JS page, and the URL the viewer pushes. */
  share_path: string;
  thumb_url: string;
  image_url: string;
  width: number | null;
  height: number | null;
  alt: string;
  title: string;
  description: string;
  /** Who took it: the member's name or '@instagram_user'; null when unknown. */
  credit: string | null;
  creation_date: string;
}

export interface PhotoViewerState {
  listing: { id: number; name: string };
  /** The photos the page printed: newest first, starting at `offset` in the whole list. */
  photos: ViewerPhoto[];
  offset: number;
  count: number;
  /** The photos API's page for this listing (24): later photos are read in these pages. */
  pageSize: number;
  /** 'grid' on the photo list page, 'strip' on the listing page. */
  layout: 'grid' | 'strip';
}

export interface PhotoRowForViewer {
  id: number;
  title: string;
  description: string;
  image_key: string;
  width: number | null;
  height: number | null;
  creation_date: Date | string;
  instagram_user?: string | null;
  profile_name?: string | null;
}

export interface ListingForViewer {
  id: number;
  name: string;
  slug: string;
  type_slug: string;
}

function credit(profileName: string | null | undefined, instagramUser: string | null | undefined): string | null {
  if (profileName) return profileName;
  return instagramUser ? `@${instagramUser}` : null;
}

/** A photo row as the viewer shows it; `position` is its 1-based place in the whole list. */
export function viewerPhotoFromRow(listing: ListingForViewer, row: PhotoRowForViewer, position: number): ViewerPhoto {
  return {
    id: row.id,
    share_path: urls.photo(listing.type_slug, listing.slug, listing.id, row.id),
    thumb_url: imageUrl(row.image_key, 'squareSmall'),
    image_url: imageUrl(row.image_key, 'photoViewer'),
    width: row.width ?? null,
    height: row.height ?? null,
    alt: row.title || `Photo ${position} of ${listing.name}`,
    title: row.title,
    description: row.description,
    credit: credit(row.profile_name, row.instagram_user),
    creation_date: new Date(row.creation_date).toISOString(),
  };
}

/** A photo from GET /api/v2/photos/ (its image is the original's URL, resized here). */
export function viewerPhotoFromDTO(dto: PhotoDTO, listingName: string, position: number): ViewerPhoto {
  return {
    id: dto.id,
    share_path: dto.share_path,
    thumb_url: sizedImageUrl(dto.prism_image_url, 'squareSmall'),
    image_url: sizedImageUrl(dto.prism_image_url, 'photoViewer'),
    width: null,
    height: null,
    alt: dto.title || `Photo ${position} of ${listingName}`,
    title: dto.title,
    description: dto.description,
    credit: credit(dto.profile?.full_name, dto.instagram_user),
    creation_date: dto.creation_date,
  };
}

/** The island's state for a page that prints `photos` (newest first) from `offset` of `count`. */
export function listingPhotoViewer(
  listing: ListingForViewer,
  { photos, count }: { photos: PhotoRowForViewer[]; count: number },
  offset = 0,
  layout: PhotoViewerState['layout'] = 'strip',
): PhotoViewerState {
  return {
    listing: { id: listing.id, name: listing.name },
    photos: photos.map((p, i) => viewerPhotoFromRow(listing, p, offset + i + 1)),
    offset,
    count,
    pageSize: PAGE_SIZE.listingPhotos,
    layout,
  };
}
