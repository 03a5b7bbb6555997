import type { ListingDTO, Page } from '../../shared/dto';
import type { BBox } from '../maps/types';

// What the hub page prints for this island (server/apps/listings/hub-page.ts → addIsland).

export interface SubTypeOption {
  id: number;
  name: string;
  slug: string;
  index: number;
}

export interface TypeOption {
  id: number;
  name: string;
  slug: string;
  sub_types: SubTypeOption[];
}

export interface HubOptions {
  types: TypeOption[];
  neighbourhoods: Array<{ id: number; name: string; slug: string }>;
  subwayStops: Array<{ id: number; name: string }>;
  features: Array<{ id: number; name: string; slug: string }>;
  services: Array<{ id: number; name: string; slug: string }>;
}

export interface HubParams {
  selectedCategoryIndex: number;
  category: string;
  subcategory: string | null;
  neighborhoodId: number | null;
  subwayStopId: number | null;
  selectedServiceSlug: string | null;
  selectedFeatures: string[];
  bestOf: boolean;
  ordering: string;
  page: number;
  fixedNeighbourhood: number | null;
}

export interface ListingSearchInitialState {
  params: HubParams;
  results: Page<ListingDTO>;
  options: HubOptions;
}

/** The 'Nearby' neighbourhood choice: the visitor's position instead of a neighbourhood. */
export const NEARBY_ID = -2;

/** The search criteria: every filter, the ordering and the map area. */
export interface Criteria {
  categoryIndex: number;
  category: string;
  subcategory: string | null;
  /** A neighbourhood id, NEARBY_ID, or null for all. */
  neighborhoodId: number | null;
  subwayStopId: number | null;
  /** A place suggestion (spec 2 §2); kept for the reset rules, no suggest service is wired. */
  selectedSuggestion: string | null;
  selectedServiceSlug: string | null;
  selectedFeatures: string[];
  bestOf: boolean;
  ordering: string;
  lat: number | null;
  long: number | null;
  bbox: BBox | null;
}

export type ViewMode = 'list' | 'map';

/** Sort tabs of spec 2 §9; MOST RECENT is smart_review on a sub-category hub. */
export function sortTabs(subcategory: string | null): Array<{ label: string; ordering: string }> {
  return [
    { label: 'A–Z', ordering: 'name' },
    { label: 'RATING', ordering: '-rating' },
    { label: 'POPULARITY', ordering: '-favourite_count' },
    { label: 'MOST RECENT', ordering: subcategory ? 'smart_review' : '-date_published' },
  ];
}
