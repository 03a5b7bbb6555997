import type { ProfileCountsDTO, ProfileDTO } from '../../shared/dto';

// The state /accounts/dashboard/ prints for the island (server/apps/accounts/pages.ts builds
// it; keep the two in step). The saved things' DTOs mirror server/apps/saves/dto.ts.
export type { ArticleBookmarkDTO, EventBookmarkDTO, FavouriteDTO, RatingDTO, TodoDTO, VideoBookmarkDTO } from '../../shared/dto';

export interface DashboardInitialState {
  profile?: ProfileDTO;
  counts?: ProfileCountsDTO | null;
  calendarEnabled?: boolean;
  iosAppUrl?: string | null;
}
