import type { ListingDTO, NavbarStateDTO, ProfileCountsDTO, ProfileDTO, SavesIslandStateDTO, VideoGridState } from './dto';
import type { EventsHubInitialState } from './events-hub';
import type { ListingSearchInitialState } from './listing-hub';
import type { NewsletterPromptInitialState } from './newsletter-prompt';
import type { PhotoViewerState } from './photo-viewer';
import type { ReviewEditorInitialState } from './place-review';
import type { SearchIslandState } from './site-search';
import type { StoryEditorInitialState } from './story-dto';

// The island boundary: each island's name (the `island(name)` macro / data-island in the
// templates) to the initial state the server prints for it (`addIsland` in server/views) and
// the island reads (`initialStateFor` in islands/common). Both sides are typed by this one
// map, so a state the server changes and an island not told of it fail the type-check.

/** What a gated page prints for the island (server/apps/site-pages/age-gate.ts). */
export interface AgeGateInitialState {
  legalAge: number;
}

/** A Best of list's map (server/apps/articles/pages.ts bestOfMapState). */
export interface BestOfMapState {
  title: string;
  listings: ListingDTO[];
}

/** The member dashboard (server/apps/profiles/pages.ts). Optional: the island defaults each field. */
export interface DashboardInitialState {
  profile?: ProfileDTO;
  counts?: ProfileCountsDTO | null;
  calendarEnabled?: boolean;
  iosAppUrl?: string | null;
}

/** Printed by server/apps/event-submissions/pages.ts: the last post's values and errors. */
export interface EventFormInitialState {
  csrfToken: string;
  city: string;
  values: Record<string, string>;
  weekdays: string[];
  errors: Record<string, string[]> | null;
  irregularRows: number;
  defaults: { startTime: string; endTime: string };
}

/** A listing page's map (server/apps/listings/pages.ts). */
export interface ListingMapState {
  listing: ListingDTO;
  coordinates: { latitude: number; longitude: number } | null;
  nearby: ListingDTO[];
}

/** One neighbourhood's page map: its own outline and the stations (server/apps/neighbourhoods/pages.ts). */
export interface NeighbourhoodPageMapState {
  neighbourhood: { id: number; name: string; boundaries: { type: string; coordinates: unknown }; centre: { latitude: number; longitude: number } };
}

/** The /neighbourhoods/ index map, every outline linking to its page: names only, the island fetches the boundaries. */
export interface NeighbourhoodsIndexMapState {
  neighbourhoods: Array<{ id: number; name: string; url: string }>;
}

/** The onboarding page (server/apps/accounts/pages.ts). */
export interface OnboardingInitialState {
  profile?: ProfileDTO;
  next?: string;
  facebookPageUrl?: string | null;
}

/** The Patio Guide's map: the page's places that have a point (server/apps/patios/pages.ts). */
export interface PatioMapState {
  listings: ListingDTO[];
}

/** What the listing photo page prints for the uploader (server/apps/photos/pages.ts). */
export interface PhotoUploaderInitialState {
  listing: { id: number; name: string };
  /** ?upload=1: show the uploader; otherwise only the recent-upload notice may show. */
  upload: boolean;
  /** Largest JPEG accepted, in MB (PHOTO_UPLOAD_MAX_MB). */
  maxMb: number;
  /** Where to go when the uploads are done (the photo list without ?upload=1). */
  completionPath: string;
}

export interface IslandStates {
  'age-gate': AgeGateInitialState;
  'best-of-map': BestOfMapState;
  dashboard: DashboardInitialState;
  'event-form': EventFormInitialState;
  'events-hub': EventsHubInitialState;
  'listing-map': ListingMapState;
  'listing-search': ListingSearchInitialState;
  navbar: NavbarStateDTO;
  'neighbourhood-page-map': NeighbourhoodPageMapState;
  'neighbourhoods-index-map': NeighbourhoodsIndexMapState;
  'newsletter-prompt': NewsletterPromptInitialState;
  onboarding: OnboardingInitialState;
  'patio-map': PatioMapState;
  'photo-uploader': PhotoUploaderInitialState;
  'photo-viewer': PhotoViewerState;
  /** The places desk's form (issue 39): the island reads the form's own inputs, so no state. */
  'place-pin': null;
  /** A place's review on the places desk (issue 39): the newsroom's body editor over the textarea. */
  'review-editor': ReviewEditorInitialState;
  saves: SavesIslandStateDTO;
  search: SearchIslandState;
  'story-editor': StoryEditorInitialState;
  'video-grid': VideoGridState;
}

export type IslandName = keyof IslandStates;
