import type { ScheduleType } from '../../shared/constants';

/** Printed by server/apps/event-submissions/pages.ts: the last post's values and errors. */
export type { EventFormInitialState } from '../../shared/islands';

/**
 * A venue type-ahead option: a place we list (choosing it makes the event that listing's), or
 * a street address from the geocoder (choosing it fills the address; the server places the
 * event from it). An address has no listing id (0).
 */
export interface VenueSuggestion {
  kind: 'place' | 'address';
  id: number;
  name: string;
  address: string;
}

export interface ImageUploadResponse {
  thumbnail_dimensions: { width: number; height: number };
  uploaded_image_url: string;
  thumbnail_url: string;
}

export type { ScheduleType };
