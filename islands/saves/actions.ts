import { createAction } from '@reduxjs/toolkit';
import type { ToggleKind } from './types';

// What the controls ask for; the sagas decide (guest → login, saved → delete, else create).

/** A favourite, to-do, article or video bookmark control was pressed. */
export const toggleRequested = createAction<{ kind: ToggleKind; objectId: number }>('saves/toggleRequested');

/** 'Add to my Events' / 'Saved' was pressed (spec 1 §4 "Event save"). */
export const eventSaveRequested = createAction<{ eventId: number }>('saves/eventSaveRequested');

/**
 * A page opened with ?eventId=N (spec 2 §2 "Authentication dialogs"): ask the save-to-calendar
 * question for that event whatever the stored preference, then save it with the answer.
 */
export const calendarDialogRequested = createAction<{ eventId: number }>('saves/calendarDialogRequested');

/** The eventId query parameter, when it names an event (a positive integer). */
export function eventIdParam(search: string): number | null {
  const raw = new URLSearchParams(search).get('eventId');
  if (!raw || !/^\d{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}
