import type { EventDTO } from '../../../shared/dto';
import type { ScheduleType } from '../../../shared/constants';
import { absoluteUrl, urls } from '../../../shared/urls';
import { imageUrl } from '../../../shared/format/image-url';
import { listingPath } from '../listings/serialize';

export interface EventRow {
  id: number;
  slug: string;
  title: string;
  description: string;
  venue_name: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
  website: string;
  schedule_type: ScheduleType;
  all_day: boolean;
  image_key: string | null;
  image_url: string | null;
  can_be_bookmarked: boolean;
  date_created: Date | string;
  listing_id: number | null;
  listing_name: string | null;
  listing_slug: string | null;
  listing_type_slug: string | null;
  start_date_time: Date | string | null;
  end_date_time: Date | string | null;
}

export function eventPath(row: Pick<EventRow, 'slug' | 'id'>): string {
  return urls.event(row.slug, row.id);
}

export function toEventDTO(row: EventRow, siteUrl: string): EventDTO {
  const image = row.image_key ? absoluteUrl(siteUrl, imageUrl(row.image_key)) : row.image_url;
  return {
    id: row.id,
    event_id: row.id,
    slug: row.slug,
    name: row.title,
    title: row.title,
    image_url: image ?? null,
    share_url: absoluteUrl(siteUrl, eventPath(row)),
    start_date_time: row.start_date_time ? new Date(row.start_date_time).toISOString() : '',
    end_date_time: row.end_date_time ? new Date(row.end_date_time).toISOString() : null,
    all_day: Boolean(row.all_day),
    location: row.latitude !== null && row.longitude !== null ? { lat: row.latitude, lng: row.longitude } : null,
    venue_name: row.venue_name,
    address: row.address,
    website: row.website,
    listing:
      row.listing_id && row.listing_slug && row.listing_type_slug
        ? {
            id: row.listing_id,
            name: row.listing_name ?? '',
            share_url: absoluteUrl(siteUrl, listingPath({ type_slug: row.listing_type_slug, slug: row.listing_slug, id: row.listing_id })),
          }
        : null,
    can_be_bookmarked: Boolean(row.can_be_bookmarked),
    schedule_type: row.schedule_type,
    date_created: new Date(row.date_created).toISOString(),
  };
}
