import { createAction } from '@reduxjs/toolkit';
import type { ToggleKind } from './types';

// What the controls ask for; the sagas decide (guest → login, saved → delete, else create).

/** A favourite, to-do, article or video bookmark control was pressed. */
export const toggleRequested = createAction<{ kind: ToggleKind; objectId: number }>('saves/toggleRequested');

/** 'Add to my Events' / 'Saved' was pressed (spec 1 §4 "Event save"). */
export const eventSaveRequested = createAction<{ eventId: number }>('saves/eventSaveRequested');
