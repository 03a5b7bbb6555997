import type { Db } from '../../db';
import type { EventDTO } from '../../../shared/dto';
import type { ScheduleType } from '../../../shared/constants';
import { absoluteUrl, urls } from '../../../shared/urls';
import { imageUrl } from '../../../shared/format/image-url';
import { listingPath } from '../listings/serialize';
// The scope and this module import each other; neither calls the other while loading.
import { whereEventIsPublic } from './queries';

export const EVENT_COLUMNS = [
  'e.id', 'e.slug', 'e.title', 'e.description', 'e.venue_name', 'e.address', 'e.latitude', 'e.longitude', 'e.website',
  'e.schedule_type', 'e.all_day', 'e.image_key', 'e.image_url', 'e.can_be_bookmarked', 'e.date_created', 'e.listing_id',
  'el.name as listing_name', 'el.slug as listing_slug', 'elt.slug as listing_type_slug',
] as const;

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

/**
 * Approved events e with their listing. `start_date_time` is the occurrence given by `at`:
 * the next one that has not ended by then, or else the last one (a past event shows its
 * final date). Each is one indexed lookup on event_occurrences (event_id, starts_at).
 */
export function eventsQuery(db: Db, at: Date = new Date()) {
  const next = db.raw(
    `coalesce(
      (select o.starts_at from event_occurrences o where o.event_id = e.id and coalesce(o.ends_at, o.starts_at) >= ? order by o.starts_at limit 1),
      (select o.starts_at from event_occurrences o where o.event_id = e.id order by o.starts_at desc limit 1)
    ) as start_date_time`,
    [at],
  );
  const nextEnd = db.raw(
    `coalesce(
      (select o.ends_at from event_occurrences o where o.event_id = e.id and coalesce(o.ends_at, o.starts_at) >= ? order by o.starts_at limit 1),
      (select o.ends_at from event_occurrences o where o.event_id = e.id order by o.starts_at desc limit 1)
    ) as end_date_time`,
    [at],
  );
  return whereEventIsPublic(db('events as e'))
    .leftJoin('listings as el', 'el.id', 'e.listing_id')
    .leftJoin('listing_types as elt', 'elt.id', 'el.type_id')
    .select([...EVENT_COLUMNS, next, nextEnd]);
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
