import type { ContentChange } from '../../cache/change-notices';
import { surrogateKeys } from '../../http/surrogate-keys';
import { urls } from '../../../shared/urls';
import type { PhotoRow } from './serialize';

/** A photo's place, as photoPlace (queries.ts) reads it. */
export interface PhotoPlace {
  listing_id: number;
  slug: string;
  type_slug: string;
}

/** The place a photo row (queries.ts photosQuery) already names, read with it. */
export function photoPlaceOfRow(row: PhotoRow): PhotoPlace | undefined {
  if (row.listing_id == null || !row.listing_slug || !row.listing_type_slug) return undefined;
  return { listing_id: row.listing_id, slug: row.listing_slug, type_slug: row.listing_type_slug };
}

/**
 * What a photo added or removed changes for readers (ctx.changes: every process forgets these
 * pages, this one at once): the photo API's lists and, when it belongs to a place, the place's
 * page, its photo page, the photo's own page and the place's API answer. At the edge: every
 * answer that lists photos and the place's own pages (place-ID). Not its hub, the lists of
 * places or its neighbourhood: their cards show the place's own image, never members' photos,
 * so a photo, the most frequent change, empties none of them.
 */
export function photoChange(photoId: number, place: PhotoPlace | undefined): ContentChange {
  const paths = ['/api/v2/photos/'];
  const keys: string[] = [surrogateKeys.photos];
  if (place) {
    const { listing_id: id, slug, type_slug: type } = place;
    paths.push(urls.listing(type, slug, id), urls.listingPhotos(type, slug, id), urls.photo(type, slug, id, photoId), `/api/v2/listings/${id}/`);
    keys.push(surrogateKeys.place(id));
  }
  return { subject: `photo:${photoId}`, paths, keys };
}
