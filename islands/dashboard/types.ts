// The state /accounts/dashboard/ prints for the island (server/apps/profiles/pages.ts builds
// it, typed by shared/islands.ts). The saved things' DTOs mirror server/apps/saves/dto.ts.
export type { ArticleBookmarkDTO, EventBookmarkDTO, FavouriteDTO, RatingDTO, TodoDTO, VideoBookmarkDTO } from '../../shared/dto';
export type { DashboardInitialState } from '../../shared/islands';
