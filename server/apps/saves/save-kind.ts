import type { Knex } from 'knex';
import type { Db } from '../../db';
import { DEFAULT_SAVE_ORDERING, SAVE_KINDS, type SaveKindName } from '../../../shared/save-kinds';
import { BY_DATE_SAVED } from './ordering';

// What the six kinds of saved things (favourites, to-dos, ratings, article, video and event
// bookmarks) have in common is described once here; ./save-queries.ts and ./api.ts do the work
// for any kind, and each app only says what is particular to it. What the islands must agree
// on (paths, payload field, last_updates key, page size) is shared/save-kinds.ts.

export type Change = 'created' | 'updated' | 'deleted';

/** ORDER BY terms for one `ordering` choice; the save's id is always added as a tie-break. */
export type OrderTerms = Array<{ column: string; order: 'asc' | 'desc'; nulls?: 'first' | 'last' }>;

/**
 * A row of a list: the object's serializer columns (`Obj`, the row its objectQuery selects),
 * plus the save's own columns prefixed `save_` (save_id, save_date_created, saveColumns).
 */
export type SaveRow<Obj = Record<string, unknown>> = Obj & Record<string, unknown> & { save_id: number; save_date_created: Date | string };

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

/**
 * One kind of save. `Obj` is the row of the saved object that objectQuery selects; the store,
 * which never reads it, takes any kind as `SaveKind<unknown, never>` (see AnySaveKind).
 */
export interface SaveKind<DTO, Obj = never> {
  /** The kind's entry in shared/save-kinds.ts. */
  name: SaveKindName;
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
  /** The objects' table, and the condition objectQuery puts on it at `now`, on objectAlias (articles: published and not scheduled). */
  objectTable: string;
  visible?(qb: Knex.QueryBuilder, now: Date): void;
  toDTO(row: SaveRow<Obj>, siteUrl: string): DTO;
  /** Why the object cannot be saved at `now` (it does not exist, …), or null when it can: a 400 naming objectField. */
  unsaveableReason(db: Db, objectId: number, now: Date): Promise<string | null>;
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

/** What an app says about its kind; the rest comes from the shared registry. */
export type SaveKindImpl<DTO, Obj> = Omit<SaveKind<DTO, Obj>, 'name' | 'objectField' | 'lastUpdateKey' | 'list'> & {
  list: Pick<SaveKind<DTO, Obj>['list'], 'orderings' | 'scope'>;
};

/** Any kind, for code that never reads the object's row (the store, post-login actions). */
export type AnySaveKind = SaveKind<unknown, never>;

/**
 * A kind built from its shared rules (shared/save-kinds.ts) and the app's database side. Every
 * list sorts by date saved; a dashboard sort tab the orderings lack fails at start-up.
 */
export function defineSaveKind<DTO, Obj>(name: SaveKindName, impl: SaveKindImpl<DTO, Obj>): SaveKind<DTO, Obj> {
  const rules = SAVE_KINDS[name];
  const orderings = { ...BY_DATE_SAVED, ...impl.list.orderings };
  const missing = rules.sortTabs.filter((t) => !Object.hasOwn(orderings, t.ordering));
  if (missing.length) throw new Error(`save kind ${name}: no ordering for sort tab ${missing.map((t) => t.ordering).join(', ')}`);
  return {
    ...impl,
    name,
    objectField: rules.objectField,
    lastUpdateKey: rules.lastUpdateKey,
    list: { ...impl.list, orderings, pageSize: rules.pageSize, defaultOrdering: DEFAULT_SAVE_ORDERING, serverTime: rules.serverTime },
  };
}
