import fs from 'node:fs';
import path from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import type { AppContext } from '../../context';
import type { Db } from '../../db';
import { ROOT } from '../../paths';
import { addIsland } from '../../views';
import { MemoryCache } from '../../cache/memory-cache';
import { selectSections } from '../../db/sections';
import { navTitle } from '../../../shared/format/text';
import { whereArticleVisible } from '../articles/serialize';
import type { NavbarMenusDTO, NavbarStateDTO, NavLinkDTO } from '../../../shared/dto';

// Every page carries the navbar: its server-rendered markup (header.njk, usable without
// JavaScript) and the island's initial state, so the island never fetches what the page
// already knows. The menus' data is shared by all pages and cached briefly per process.
// Nothing here is about the visitor: pages are the same for everybody, and the island asks
// GET /api/v2/profiles/hi/ who is signed in (when the signed-in cookie says to ask).

// The shapes are shared with the island (shared/dto.ts).
export type NavLink = NavLinkDTO;
export type NavbarMenus = NavbarMenusDTO;
export type NavbarState = NavbarStateDTO;

const MENU_TTL_MS = 60_000;
const MENU_SIZE = 5;

export const APP_VERSION: string = (() => {
  try {
    return (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0';
  }
})();

function articleLinks(db: Db, now: Date, typeSlug?: string) {
  const q = whereArticleVisible(db('articles as a').join('article_types as t', 't.id', 'a.type_id'), now)
    .orderBy([{ column: 'a.date_published', order: 'desc' }, { column: 'a.id', order: 'desc' }])
    .limit(MENU_SIZE)
    .select('a.name', 'a.path');
  if (typeSlug) q.where('t.slug', typeSlug);
  // The cannabis section sits behind the age gate: its titles stay out of every page's menu.
  else q.whereNot('t.slug', 'cannabis');
  return q;
}

/** The three menus in one statement (db/sections.ts): a cold cache costs the page one query. */
export async function loadNavbarMenus(db: Db, now: Date): Promise<NavbarMenus> {
  const menus = await selectSections(db, {
    latestArticles: articleLinks(db, now),
    recentReviews: articleLinks(db, now, 'food'),
    listingTypes: db('listing_types').orderBy(['position', 'name']).select('name', 'slug'),
  });
  const links = (rows: unknown[]) => (rows as Array<{ name: string; path: string }>).map((r) => ({ name: navTitle(r.name), path: r.path }));
  return {
    latestArticles: links(menus.latestArticles),
    recentReviews: links(menus.recentReviews),
    listingTypes: (menus.listingTypes as Array<{ name: string; slug: string }>).map((t) => ({ name: t.name, path: `/${t.slug}/` })),
  };
}

/** Page middleware: puts the navbar state in res.locals for the header and the island. */
export function navbarIsland(ctx: AppContext) {
  // One load shared by the pages that ask meanwhile; a failed load is not kept: the next page tries again.
  const cache = new MemoryCache<'menus', NavbarMenus>({ ttlMs: MENU_TTL_MS, maxEntries: 1 });
  const menus = () => cache.load('menus', () => loadNavbarMenus(ctx.db, ctx.now()));
  const social = {
    facebook: Boolean(ctx.config.facebook.appId && ctx.config.facebook.appSecret),
    apple: Boolean(ctx.config.apple.clientId),
    appleClientId: ctx.config.apple.clientId ?? null,
  };
  return async function navbar(req: Request, res: Response, next: NextFunction): Promise<void> {
    if ((req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') || req.path.startsWith('/api/')) return next();
    let navMenus: NavbarMenus = { latestArticles: [], recentReviews: [], listingTypes: [] };
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
