import type { Config } from './config';
import type { Db } from './db';
import type { Replica } from './db/replica';
import type { Logger } from './logger';
import type { JobQueue } from './jobs/queue';
import type { ChangeNotices } from './cache/change-notices';
import type { Mailer } from './mail/mailer';
import type { Storage } from './storage/storage';
import type { NavbarMenuEntry } from './http/navbar';
import type { StaffSection } from './http/staff-menu';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { StoryDoc } from '../shared/newsroom';

/**
 * What every app's routers and services receive: dependencies passed in, never imported as
 * module singletons, so tests can build an app with their own database, clock or mailer.
 */
export interface AppContext {
  config: Config;
  db: Db;
  /**
   * For read-only queries outside transactions that a streaming replica may answer (public
   * pages on a cache miss, public list and search APIs): db itself without DATABASE_REPLICA_URL.
   * Writes, and reads that must see them, use db.
   */
  dbRead: Db;
  /** The replica's state (/healthz) and read-your-writes routing; null without one. */
  replica: Replica | null;
  dbKind: 'postgres' | 'pglite';
  logger: Logger;
  mailer: Mailer;
  storage: Storage;
  now: () => Date;
  /**
   * The PostgreSQL job queue (pg-boss, server/jobs/queue.ts) on this context's database: any
   * handler enqueues with `ctx.jobs.send(name, data, { startAfter })`; the server process works
   * the registry's jobs (apps/index.ts appJobs). Nothing is loaded or queried before first use.
   */
  jobs: JobQueue;
  /**
   * Content changed: every process forgets its kept copies of what readers see (the page cache,
   * the home's lists, the navbar's menus, shared answers and counts) through PostgreSQL
   * LISTEN/NOTIFY (server/cache/change-notices.ts); `ctx.changes.announce(...)` after a change.
   */
  changes: ChangeNotices;
  /**
   * Copies a saved event into the member's Google Calendar. The calendar app provides it and
   * the app registry (apps/index.ts appServices) puts it here, so that bookmarks can call the
   * calendar without importing it (the calendar already imports bookmarks). Tests pass fakes.
   */
  calendarSync: CalendarSync;
  /**
   * What to tell a member whose right password opens an account closed for deletion, while
   * its undo link still works. The account-deletion app provides it through the registry, so
   * that accounts' sign-in can say so without importing the app above it.
   */
  pendingDeletionNotice: PendingDeletionNotice;
  /**
   * The six kinds of save (favourites, to-dos, ratings, saved articles, videos and events),
   * built once per context by the registry: the saving APIs, the save a guest asked for before
   * signing in, the calendar's pending event and account deletion all use these objects.
   */
  saveKinds: SaveKinds;
  /**
   * The site's menus, each entry from the app that owns what it links to, in the order shown
   * (the registry assembles them); the core loads and renders them (http/navbar.ts,
   * http/staff-menu.ts) without naming an app.
   */
  menus: AppMenus;
  /**
   * Live co-editing of stories' bodies (the co-editing app, through the registry): the
   * websocket the server processes serve, and the newsroom's way to change a body from outside
   * the shared document (a restored revision, a save through the API) so every editor sees it.
   */
  sharedStories: SharedStories;
}

export interface SharedStories {
  /**
   * The body as the story's shared document holds it now (every process's editors' changes
   * stored so far), or null when it has none: the newsroom writes it into the story before
   * publishing, checking, previewing or an explicit revision, so none misses the last words.
   */
  currentBody(storyId: number): Promise<StoryDoc | null>;
  /** The story's body replaced by the server; editors in the story see it as any change. No shared document yet: nothing to do. */
  replaceBody(storyId: number, doc: StoryDoc): Promise<void>;
  /** An HTTP upgrade request: the live editing websocket takes its own path and refuses others. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Stores every open document's body and closes the sockets (the server stopping). */
  close(): Promise<void>;
}

export interface AppMenus {
  navbar: readonly NavbarMenuEntry[];
  staff: readonly StaffSection[];
}

/**
 * The save kinds by name (shared/save-kinds.ts). Each app that owns a kind adds its entry here
 * by declaration merging (favourites/favourites-kind.ts and the like), so the core carries them typed
 * without naming an app; the registry builds them all.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SaveKinds {}

/** The message for that member, or undefined when no deletion is pending (or its undo window is over). */
export type PendingDeletionNotice = (ctx: Pick<AppContext, 'db' | 'config' | 'now'>, memberId: number) => Promise<string | undefined>;

/** What bookmarks need to know of the calendar's answer; other statuses keep the bookmark. */
export type CalendarSyncResult =
  | { status: 'needs_authorization'; authorization_url: string }
  | { status: 'synced' | 'disabled' | 'failed' };

/** Takes the context it is called with, so a context rebuilt with another config is obeyed. */
export type CalendarSync = (ctx: AppContext, memberId: number, eventId: number) => Promise<CalendarSyncResult>;

/** What the app registry adds to every context: services one app offers another. */
export type AppServices = Pick<AppContext, 'calendarSync' | 'pendingDeletionNotice' | 'saveKinds' | 'menus' | 'sharedStories'>;
