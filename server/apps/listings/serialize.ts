import type { ListingDTO } from '../../../shared/dto';
import { absoluteUrl, urls } from '../../../shared/urls';
import { imageUrl } from '../../../shared/format/image-url';
import { closedDay } from '../../../shared/place-closing';

// The one way a listing becomes JSON: lists, details, saved things and search all select
// LISTING_COLUMNS through listingsQuery (queries.ts: one query, joins, no per-row lookups)
// and map rows with toListingDTO.

export interface ListingRow {
  id: number;
  name: string;
  slug: string;
  address: string;
  phone: string;
  website: string;
  latitude: number | null;
  longitude: number | null;
  image_key: string | null;
  dinesafe_establishment_id: number | string | null;
  rating: number | null;
  rating_count: number;
  favourite_count: number;
  appears_in_best_of_lists: boolean;
  date_published: Date | string;
  smart_review_score: number;
  /** When its review was published; null (or not selected) when it has none published. */
  review_published_at?: Date | string | null;
  /** The day it closed or will close (shared/place-closing.ts); null while it is open. */
  closed_on?: Date | string | null;
  type_id: number;
  type_name: string;
  type_slug: string;
  sub_type_id: number | null;
  sub_type_name: string | null;
  sub_type_slug: string | null;
  neighbourhood_id: number | null;
  neighbourhood_name: string | null;
  neighbourhood_slug: string | null;
  distance?: number | null;
  user_rating_id?: number | null;
  user_rating?: number | null;
}

export function listingPath(row: Pick<ListingRow, 'type_slug' | 'slug' | 'id'>): string {
  return urls.listing(row.type_slug, row.slug, row.id);
}

export function toListingDTO(row: ListingRow, siteUrl: string): ListingDTO {
  const dto: ListingDTO = {
    id: row.id,
    name: row.name,
    image_url: row.image_key ? absoluteUrl(siteUrl, imageUrl(row.image_key)) : null,
    share_url: absoluteUrl(siteUrl, listingPath(row)),
    // The page's review section (listing.njk #review): what the maps' "View Review" opens.
    review_url: row.review_published_at ? absoluteUrl(siteUrl, `${listingPath(row)}#review`) : null,
    coordinates: row.latitude !== null && row.longitude !== null ? { latitude: row.latitude, longitude: row.longitude } : null,
    type: { id: row.type_id, name: row.type_name, slug: row.type_slug, share_url: absoluteUrl(siteUrl, urls.listingType(row.type_slug)) },
    sub_type:
      row.sub_type_id && row.sub_type_slug
        ? {
            id: row.sub_type_id,
            name: row.sub_type_name ?? '',
            slug: row.sub_type_slug,
            share_url: absoluteUrl(siteUrl, urls.listingSubType(row.type_slug, row.sub_type_slug)),
          }
        : null,
    default_neighborhood:
      row.neighbourhood_id && row.neighbourhood_slug
        ? { id: row.neighbourhood_id, name: row.neighbourhood_name ?? '', path: urls.neighbourhoodPath(row.neighbourhood_slug) }
        : null,
    rating: row.rating === null || row.rating === undefined ? null : Number(row.rating),
    rating_count: Number(row.rating_count ?? 0),
    appears_in_best_of_lists: Boolean(row.appears_in_best_of_lists),
    address: row.address,
    phone: row.phone,
    website: row.website,
    dinesafe_establishment_id: row.dinesafe_establishment_id === null ? null : Number(row.dinesafe_establishment_id),
    favourite_count: row.favourite_count,
    date_published: new Date(row.date_published).toISOString(),
  };
  if (row.closed_on !== undefined) dto.closed_on = closedDay(row.closed_on);
  if (row.user_rating_id !== undefined) {
    dto.user_rating = row.user_rating_id ? { id: row.user_rating_id, rating: Number(row.user_rating) } : null;
  }
  if (row.distance !== undefined && row.distance !== null) dto.distance = Math.round(Number(row.distance) * 100) / 100;
  return dto;
}
