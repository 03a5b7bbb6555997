import fs from 'node:fs';
import path from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import type { Knex } from 'knex';
import type { AppContext } from '../context';
import type { Db } from '../db';
import { ROOT } from '../paths';
import { addIsland } from '../views';
import { MemoryCache } from '../cache/memory-cache';
import { changeTouches } from '../cache/change-keys';
import { NAVBAR_MENUS_TTL_MS as MENU_TTL_MS } from '../cache/lifetimes';
import { selectSections } from '../db/sections';
import type { NavbarMenusDTO, NavbarStateDTO, NavLinkDTO } from '../../shared/dto';

// Every page carries the navbar: its server-rendered markup (header.njk, usable without
// JavaScript) and the island's initial state, so the island never fetches what the page
// already knows. What the menus list comes from the apps that own it (their entries reach
// the core as ctx.menus.navbar, assembled by the registry); this file only loads, caches and
// renders them. The menus' data is shared by all pages and cached briefly per process.
// Nothing here is about the visitor: pages are the same for everybody, and the island asks
// GET /api/v2/profiles/hi/ who is signed in (when the signed-in cookie says to ask).

// The shapes are shared with the island (shared/dto.ts).
export type NavLink = NavLinkDTO;
export type NavbarMenus = NavbarMenusDTO;
export type NavbarState = NavbarStateDTO;

/** One app's links in one of the navbar's menus. */
export interface NavbarMenuEntry {
  /** The menu they go in (shared/dto.ts NavbarMenusDTO). */
  menu: keyof NavbarMenus;
  /** The links' rows at `now`, in menu order; run with the other entries' in one statement. */
  query(db: Db, now: Date): Knex.QueryBuilder;
  /** One row as a link. */
  link(row: Record<string, unknown>): NavLink;
  /**
   * When the row's link is from (a story's or a place review's publishing), and how many links
   * the menu keeps: the entries of a menu that all give it are merged newest first and cut to
   * the largest `keep` (RECENT REVIEWS: food stories and place reviews, issue 39).
   */
  newest?: { at(row: Record<string, unknown>): Date; keep: number };
}


export const APP_VERSION: string = (() => {
  try {
    return (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0';
  }
})();

const emptyMenus = (): NavbarMenus => ({ latestArticles: [], recentReviews: [], listingTypes: [] });

/**
 * Every entry's links in one statement (db/sections.ts): a cold cache costs the page one
 * query. Entries for the same menu follow each other in the order given.
 */
export async function loadNavbarMenus(db: Db, now: Date, entries: readonly NavbarMenuEntry[]): Promise<NavbarMenus> {
  const rows = await selectSections(db, Object.fromEntries(entries.map((e, i) => [`entry${i}`, e.query(db, now)])));
  const menus = emptyMenus();
  entries.forEach((e, i) => menus[e.menu].push(...(rows[`entry${i}`] as Array<Record<string, unknown>>).map((r) => e.link(r))));
  for (const menu of Object.keys(menus) as Array<keyof NavbarMenus>) {
    const own = entries.map((e, i) => ({ e, rows: rows[`entry${i}`] as Array<Record<string, unknown>> })).filter(({ e }) => e.menu === menu);
    if (own.length < 2 || !own.every(({ e }) => e.newest)) continue;
    const dated = own.flatMap(({ e, rows: rs }) => rs.map((r) => ({ link: e.link(r), at: e.newest!.at(r).getTime() })));
    dated.sort((a, b) => b.at - a.at);
    menus[menu] = dated.slice(0, Math.max(...own.map(({ e }) => e.newest!.keep))).map((d) => d.link);
  }
  return menus;
}

/** Page middleware: puts the navbar state in res.locals for the header and the island. */
export function navbarLocals(ctx: AppContext) {
  // One load shared by the pages that ask meanwhile; a failed load is not kept: the next page tries again.
  const cache = new MemoryCache<'menus', NavbarMenus>({ name: 'navbar-menus', ttlMs: MENU_TTL_MS, maxEntries: 1 });
  const menus = () => cache.load('menus', () => loadNavbarMenus(ctx.db, ctx.now(), ctx.menus.navbar));
  // The menus list the latest stories and reviews (a story's change names story- and section-
  // keys) and the listing types (hub- keys); a change naming nothing (a reconnect) also drops them.
  ctx.changes.subscribe((change) => {
    if (changeTouches(change, ['story-', 'section-', 'hub-'])) cache.clear();
  });
  // Which sign-in buttons the dialogs offer: the providers the config has keys for.
  const social = {
    facebook: Boolean(ctx.config.facebook.appId && ctx.config.facebook.appSecret),
    apple: Boolean(ctx.config.apple.clientId),
    appleClientId: ctx.config.apple.clientId ?? null,
  };
  return async function navbar(req: Request, res: Response, next: NextFunction): Promise<void> {
    if ((req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') || req.path.startsWith('/api/')) return next();
    let navMenus: NavbarMenus = emptyMenus();
    try {
      navMenus = await menus();
    } catch (err) {
      ctx.logger.warn({ err }, 'navbar menus unavailable');
    }
    const state: NavbarState = {
      appVersion: APP_VERSION,
      social,
      menus: navMenus,
    };
    res.locals.navbar = state;
    addIsland(res, 'navbar', state);
    next();
  };
}
