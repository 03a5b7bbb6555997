import type { Request, Response } from 'express';
import type { AppContext } from '../../context';
import { addIsland } from '../../views';
import type { SavesIslandKind, SavesIslandStateDTO } from '../../../shared/dto';

// What a public page tells the saves island (SavesIslandStateDTO in shared/dto.ts): the
// member or null, the saved-id maps its controls need, the calendar preference and whether
// calendar sync is configured. The controls themselves are printed by
// templates/partials/save-controls.njk.

export type { SavesIslandKind };
export type SavesIslandState = SavesIslandStateDTO;

export const LISTING_SAVE_KINDS: SavesIslandKind[] = ['favourites', 'todos', 'ratings'];

export function savesIslandState(ctx: AppContext, req: Request, kinds: SavesIslandKind[]): SavesIslandState {
  const m = req.user;
  return {
    member: m ? { id: m.id, email: m.email, calendarSync: m.sync_bookmarked_events_to_google_calendar ?? null } : null,
    kinds,
    calendarEnabled: Boolean(ctx.config.google.clientId),
  };
}

export function addSavesIsland(ctx: AppContext, req: Request, res: Response, kinds: SavesIslandKind[]): void {
  addIsland(res, 'saves', savesIslandState(ctx, req, kinds));
}
