import type { ArticleDTO, EventDTO, ListingDTO, VideoDTO } from '../../../shared/dto';

// The JSON of saved things (spec 1 §3). They belong beside the other DTOs in shared/dto.ts,
// where the islands can import them; until the lead moves them there, they live here.

export interface FavouriteDTO {
  id: number;
  date_created: string;
  listing: ListingDTO;
}

export interface TodoDTO {
  id: number;
  is_done: boolean;
  date_created: string;
  date_completed: string | null;
  listing: ListingDTO;
}

export interface RatingDTO {
  id: number;
  rating: number;
  date_created: string;
  date_updated: string;
  listing: ListingDTO;
}

/** GET /api/v2/ratings/listing_ids/ answers listing id → this, so pages can show the stars. */
export interface RatingIdsEntry {
  id: number;
  rating: number;
}

export interface ArticleBookmarkDTO {
  id: number;
  object_id: number;
  date_created: string;
  article: ArticleDTO;
}

export interface VideoBookmarkDTO {
  id: number;
  object_id: number;
  date_created: string;
  /** `video.date_created` is when the bookmark was made: the islands' caches read it there. */
  video: VideoDTO & { date_created: string };
}

export interface EventBookmarkDTO {
  id: number;
  object_id: number;
  add_to_calendar: boolean;
  date_created: string;
  event: EventDTO;
}

/** POST /api/v2/event-bookmarks/ when the member must first authorise Google Calendar. */
export interface CalendarAuthorizationNeededDTO {
  status: 101;
  authorization_url: string;
}

export const isoTime = (value: unknown): string => new Date(value as string).toISOString();
