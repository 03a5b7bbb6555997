import type { Config } from './config';
import type { Db } from './db';
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
  dbKind: 'postgres' | 'pglite';
  logger: Logger;
  mailer: Mailer;
  storage: Storage;
  now: () => Date;
}
