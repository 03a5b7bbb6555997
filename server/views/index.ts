import type { Express, NextFunction, Request, Response } from 'express';
import nunjucks from 'nunjucks';
import type { Config } from '../config';
import { TEMPLATES_DIR } from '../paths';
import { makeFilters } from './formatters';
import { jsonForScript } from './json-script';
import type { ViteManifest } from './vite-manifest';
import { requestPathAndQuery } from '../http/request-path';
import { ARTICLE_TYPES, NEWSLETTERS, SHARE_WINDOWS, STICKY_OFFSETS, THEME_COLOR } from '../../shared/constants';
import { pageLinks } from '../../shared/pagination';
import { titleLengthClass } from '../../shared/format/text';
import { closingBadge } from '../../shared/place-closing';
import type { SiteConfigDTO } from '../../shared/dto';
import type { IslandName, IslandStates } from '../../shared/islands';

export function siteConfigDTO(config: Config): SiteConfigDTO {
  return {
    name: config.site.name,
    url: config.site.url,
    city: { name: config.city.name, slug: config.city.slug, latitude: config.city.latitude, longitude: config.city.longitude },
    country: config.country,
    timeZone: config.city.timeZone,
    startYear: config.city.startYear,
    flags: config.flags,
    map: { styleUrl: config.map.styleUrl, pmtilesUrl: config.map.pmtilesUrl },
  };
}

/** Sets up Nunjucks for the app: autoescaping on, the site's filters and globals. */
export function configureViews(app: Express, config: Config, manifest: ViteManifest): nunjucks.Environment {
  const env = nunjucks.configure(TEMPLATES_DIR, {
    autoescape: true,
    express: app,
    noCache: config.env === 'development',
    throwOnUndefined: false,
  });
  app.set('view engine', 'njk');
  for (const [name, fn] of Object.entries(makeFilters(config.city.timeZone, config.site.url))) env.addFilter(name, fn as (...args: unknown[]) => unknown);
  env.addFilter('jsonScript', (value: unknown) => new nunjucks.runtime.SafeString(jsonForScript(value)));
  env.addFilter('titleClass', (title: unknown) => titleLengthClass(String(title ?? '')));
  // A place card's "Closed" (issue 39): by the clock when the page is made, as the page's own line.
  env.addFilter('placeClosing', (closedOn: unknown) => closingBadge(typeof closedOn === 'string' || closedOn instanceof Date ? closedOn : null, new Date(), config.city.timeZone));
  env.addGlobal('site', config.site);
  env.addGlobal('city', config.city);
  env.addGlobal('country', config.country);
  env.addGlobal('flags', config.flags);
  env.addGlobal('social', config.social);
  env.addGlobal('articleTypes', ARTICLE_TYPES);
  env.addGlobal('newsletters', NEWSLETTERS.filter((n) => !n.requires || config.flags[n.requires]));
  env.addGlobal('siteConfig', siteConfigDTO(config));
  env.addGlobal('islandAssets', (islands: string[]) => manifest.assetsFor(islands ?? []));
  env.addGlobal('stylesheetHref', (name: string) => manifest.stylesheet(name));
  env.addGlobal('currentYear', () => new Date().getFullYear());
  env.addGlobal('facebookLoginEnabled', Boolean(config.facebook.appId && config.facebook.appSecret));
  env.addGlobal('appleLoginEnabled', Boolean(config.apple.clientId));
  env.addGlobal('pageLinks', pageLinks);
  env.addGlobal('shareWindows', SHARE_WINDOWS);
  env.addGlobal('stickyOffsets', STICKY_OFFSETS);
  env.addGlobal('themeColor', THEME_COLOR);
  env.addGlobal('googleCalendarEnabled', Boolean(config.google.clientId));
  return env;
}

/**
 * Per-request locals every template can use: the CSRF token (set by the CSRF middleware), the
 * current URL, and the islands/initial state a page adds with `addIsland`. Not the member:
 * pages are the same for everybody (the page cache serves members too), and what is personal
 * comes through the islands; a member's own page (dashboard, log out) passes `member` itself.
 */
export function viewLocals(req: Request, res: Response, next: NextFunction): void {
  res.locals.currentPath = req.path;
  // The path asked for, even when the request line names a host (`GET http://evil/x`).
  res.locals.currentUrl = requestPathAndQuery(req);
  res.locals.islands = [] as string[];
  res.locals.initialState = {} as Record<string, unknown>;
  next();
}

/** A page asks for an island: its script is printed and its initial state embedded once. */
export function addIsland<N extends IslandName>(res: Response, name: N, state: IslandStates[N]): void {
  const islands = res.locals.islands as IslandName[];
  if (!islands.includes(name)) islands.push(name);
  if (state !== undefined) (res.locals.initialState as Partial<IslandStates>)[name] = state;
}
