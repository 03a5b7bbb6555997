// The saved things' JSON types live in shared/dto.ts, where the islands import them too.
export type {
  ArticleBookmarkDTO,
  CalendarAuthorizationNeededDTO,
  EventBookmarkDTO,
  FavouriteDTO,
  RatingDTO,
  RatingIdsEntry,
  TodoDTO,
  VideoBookmarkDTO,
} from '../../../shared/dto';

export const isoTime = (value: unknown): string => new Date(value as string).toISOString();
