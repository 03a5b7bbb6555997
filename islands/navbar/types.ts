import type { FeatureFlags } from '../../shared/constants';

// The state the page prints for the navbar (server/apps/accounts/navbar.ts builds it; keep
// the two in step). Every field may be missing from an older page, so the island defaults.

export interface NavLink {
  name: string;
  path: string;
}

export interface NavUser {
  id: number;
  full_name: string;
  email: string;
}

export interface NavbarInitialState {
  user?: NavUser | null;
  appVersion?: string;
  social?: { facebook: boolean; apple: boolean; appleClientId: string | null };
  menus?: { latestArticles: NavLink[]; recentReviews: NavLink[]; listingTypes: NavLink[] };
}

export interface NavbarSite {
  name: string;
  cityName: string;
  flags: FeatureFlags;
}
