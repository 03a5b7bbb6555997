import { z } from 'zod';
import { PAGE_SIZE } from '../../../shared/constants';
import { ValidationError } from '../../http/errors';
import { validate } from '../../http/validate';
import { booleanField } from '../saves/fields';
import { isoTime, type TodoDTO } from '../saves/dto';
import { defineSaveKind, type ListScope, type SaveKind } from '../saves/save-kind';
import { LISTING_SAVE_ORDERINGS, listingObject, parseListing, savedListingDTO, type SavedListingRow } from '../listings/listing-save-queries';

// A member's to-do list of places. Two lists in one table: open to-dos (100 a page, newest
// first) and completed ones (15 a page, most recently completed first, so an item just
// marked done heads the completed list, as spec 1 §4 asks).

const ORDERINGS = {
  ...LISTING_SAVE_ORDERINGS,
  '-date_completed': [{ column: 's.date_completed', order: 'desc' as const, nulls: 'last' as const }],
};

function completedScope(query: Record<string, unknown>): ListScope {
  const value = query.completed;
  if (value === undefined || value === '' || value === '0' || value === 'false') {
    return { where: { is_done: false }, pageSize: PAGE_SIZE.incompleteTodos, defaultOrdering: '-date_created' };
  }
  if (value === '1' || value === 'true') return { where: { is_done: true }, pageSize: PAGE_SIZE.completedTodos, defaultOrdering: '-date_completed' };
  throw ValidationError.field('completed', 'Must be 0 or 1.');
}

const patchPayload = z.object({ is_done: booleanField });

/** PATCH {is_done}: done stamps the completion time (the list orders by it); undone clears it. */
export function parseTodoPatch(body: unknown, now: Date): Record<string, unknown> {
  const { is_done } = validate(patchPayload, body);
  return { is_done, date_completed: is_done ? now : null };
}

/** Built once per context (AppContext.saveKinds). */
export function createTodosKind(): SaveKind<TodoDTO, SavedListingRow> {
  return defineSaveKind<TodoDTO, SavedListingRow>('todos', {
    ...listingObject,
    table: 'todos',
    saveColumns: ['is_done', 'date_completed'],
    toDTO: (row, siteUrl) => ({
      id: row.save_id,
      is_done: Boolean(row.save_is_done),
      date_created: isoTime(row.save_date_created),
      date_completed: row.save_date_completed ? isoTime(row.save_date_completed) : null,
      listing: savedListingDTO(row, siteUrl),
    }),
    parseCreate: (body) => ({ objectId: parseListing(body) }),
    list: { orderings: ORDERINGS, scope: completedScope },
  });
}

// AppContext.saveKinds.todos is this kind (the registry builds it).
declare module '../../context' {
  interface SaveKinds {
    todos: SaveKind<TodoDTO, SavedListingRow>;
  }
}
