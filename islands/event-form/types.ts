import type { ScheduleType } from '../../shared/constants';

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

export interface ListingSuggestion {
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
