import type { Db } from '../../db';
import type { ListingDTO } from '../../../shared/dto';
import { absoluteUrl, urls } from '../../../shared/urls';
import { imageUrl } from '../../../shared/format/image-url';

// The one way a listing becomes JSON: lists, details, saved things and search all select
// LISTING_COLUMNS through listingsQuery (one query, joins, no per-row lookups) and map rows
// with toListingDTO.

export const LISTING_COLUMNS = [
  'l.id', 'l.name', 'l.slug', 'l.address', 'l.phone', 'l.website', 'l.latitude', 'l.longitude', 'l.image_key',
  'l.dinesafe_establishment_id', 'l.rating', 'l.rating_count', 'l.favourite_count', 'l.appears_in_best_of_lists',
  'l.date_published', 'l.smart_review_score',
  'lt.id as type_id', 'lt.name as type_name', 'lt.slug as type_slug',
  'lst.id as sub_type_id', 'lst.name as sub_type_name', 'lst.slug as sub_type_slug',
  'n.id as neighbourhood_id', 'n.name as neighbourhood_name', 'n.slug as neighbourhood_slug',
] as const;

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

/** listings l with its type lt, sub-type lst and neighbourhood n joined, LISTING_COLUMNS selected. */
export function listingsQuery(db: Db) {
  return db('listings as l')
    .join('listing_types as lt', 'lt.id', 'l.type_id')
    .leftJoin('listing_sub_types as lst', 'lst.id', 'l.sub_type_id')
    .leftJoin('neighbourhoods as n', 'n.id', 'l.neighbourhood_id')
    .select([...LISTING_COLUMNS]);
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
  if (row.user_rating_id !== undefined) {
    dto.user_rating = row.user_rating_id ? { id: row.user_rating_id, rating: Number(row.user_rating) } : null;
  }
  if (row.distance !== undefined && row.distance !== null) dto.distance = Math.round(Number(row.distance) * 100) / 100;
  return dto;
}
