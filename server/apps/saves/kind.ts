import type { Knex } from 'knex';
import type { Db } from '../../db';

// What the six kinds of saved things (favourites, to-dos, ratings, article, video and event
// bookmarks) have in common is described once here; ./store.ts and ./handlers.ts do the work
// for any kind, and each app only says what is particular to it.

export type Change = 'created' | 'updated' | 'deleted';

/** ORDER BY terms for one `ordering` choice; the save's id is always added as a tie-break. */
export type OrderTerms = Array<{ column: string; order: 'asc' | 'desc'; nulls?: 'first' | 'last' }>;

/**
 * A row of a list: the object's serializer columns, plus the save's own columns prefixed
 * `save_` (save_id, save_date_created and the kind's saveColumns).
 */
export type SaveRow = Record<string, unknown> & { save_id: number; save_date_created: Date | string };

/** What a create request asks for, after validation. */
export interface CreateRequest {
  objectId: number;
  /** Columns of the new row beyond profile_id, the object and date_created. */
  fields?: Record<string, unknown>;
  /** When the member already saved the object: columns to change on it (a new rating). */
  onExisting?: Record<string, unknown>;
}

export interface ListScope {
  /** Conditions on the save table's columns (to-dos: is_done). */
  where?: Record<string, unknown>;
  pageSize?: number;
  defaultOrdering?: string;
}

export interface SaveKind<DTO> {
  /** The table of saves, aliased `s` in list queries. */
  table: string;
  /** Its column naming the saved object. */
  objectColumn: string;
  /** The field of the create payload that names the object; errors name it too. */
  objectField: string;
  /** The `last_updates` key the islands' caches watch. */
  lastUpdateKey: string;
  /** Columns of the save table the DTO reads beyond id and date_created. */
  saveColumns: readonly string[];
  /** The saved object's serializer query (one query, joins), with `${objectAlias}.id`. */
  objectQuery(db: Db, memberId: number, now: Date): Knex.QueryBuilder;
  objectAlias: string;
  /** The objects' table, and the condition objectQuery puts on it (articles: published). */
  objectTable: string;
  visibleWhere?: Record<string, unknown>;
  toDTO(row: SaveRow, siteUrl: string): DTO;
  /** Why the object cannot be saved (it does not exist, …), or null when it can: a 400 naming objectField. */
  unsaveableReason(db: Db, objectId: number): Promise<string | null>;
  /** Reads a create payload (a zod-validated body). */
  parseCreate(body: unknown, now: Date): CreateRequest;
  /** Keeps counters on the object in step, inside the transaction of the change. */
  onChange?(trx: Knex.Transaction, objectId: number, change: Change): Promise<void>;
  list: {
    pageSize: number;
    orderings: Record<string, OrderTerms>;
    defaultOrdering: string;
    /** Bookmark lists carry the server's time, which the islands' caches compare against. */
    serverTime: boolean;
    /** Reads extra query parameters that narrow the list (to-dos: completed). */
    scope?(query: Record<string, unknown>): ListScope;
  };
}
