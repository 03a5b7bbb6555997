import type { Config } from './config';
import type { Db } from './db';
import type { Replica } from './db/replica';
import type { Logger } from './logger';
import type { Mailer } from './mail/mailer';
import type { Storage } from './storage/storage';

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
}

/** The message for that member, or undefined when no deletion is pending (or its undo window is over). */
export type PendingDeletionNotice = (ctx: Pick<AppContext, 'db' | 'config' | 'now'>, memberId: number) => Promise<string | undefined>;

/** What bookmarks need to know of the calendar's answer; other statuses keep the bookmark. */
export type CalendarSyncResult =
  | { status: 'needs_authorization'; authorization_url: string }
  | { status: 'synced' | 'disabled' | 'failed' };

/** Takes the context it is called with, so a context rebuilt with another config is obeyed. */
export type CalendarSync = (ctx: AppContext, memberId: number, eventId: number) => Promise<CalendarSyncResult>;

/** What the app registry adds to every context: services one app offers another. */
export type AppServices = Pick<AppContext, 'calendarSync' | 'pendingDeletionNotice'>;
