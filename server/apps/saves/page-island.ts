import type { Request, Response } from 'express';
import type { AppContext } from '../../context';
import { addIsland } from '../../views';
import type { SavesIslandKind, SavesIslandStateDTO } from '../../../shared/dto';

// What a public page tells the saves island (SavesIslandStateDTO in shared/dto.ts): the
// saved-id maps its controls need and whether calendar sync is configured. The same for
// everybody: the island learns the member (and their calendar preference) from GET
// /api/v2/profiles/hi/. The controls themselves are printed by
// templates/partials/save-controls.njk.

export type { SavesIslandKind };
export type SavesIslandState = SavesIslandStateDTO;

export const LISTING_SAVE_KINDS: SavesIslandKind[] = ['favourites', 'todos', 'ratings'];

export function savesIslandState(ctx: AppContext, kinds: SavesIslandKind[]): SavesIslandState {
  return {
    kinds,
    calendarEnabled: Boolean(ctx.config.google.clientId),
  };
}

/** `_req` is unused (nothing on the page is about the visitor); kept so that every page calls it alike. */
export function addSavesIsland(ctx: AppContext, _req: Request, res: Response, kinds: SavesIslandKind[]): void {
  addIsland(res, 'saves', savesIslandState(ctx, kinds));
}
