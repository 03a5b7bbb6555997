import type { ContentChange } from '../../cache/change-notices';
import { urls } from '../../../shared/urls';

/** A photo's place, as photoPlace (queries.ts) reads it. */
export interface PhotoPlace {
  listing_id: number;
  slug: string;
  type_slug: string;
}

/**
 * What a photo added or removed changes for readers (ctx.changes: every process forgets these
 * pages, this one at once): the photo API's lists and, when it belongs to a place, the place's
 * page, its photo page, the photo's own page and the place's API answer.
 */
export function photoChange(photoId: number, place: PhotoPlace | undefined): ContentChange {
  const paths = ['/api/v2/photos/'];
  if (place) {
    const { listing_id: id, slug, type_slug: type } = place;
    paths.push(urls.listing(type, slug, id), urls.listingPhotos(type, slug, id), urls.photo(type, slug, id, photoId), `/api/v2/listings/${id}/`);
  }
  return { subject: `photo:${photoId}`, paths };
}
