import { createHash } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Db } from '../../db';
import { MemoryCache } from '../../cache/memory-cache';
import { HUB_OPTIONS_TTL_MS } from '../../cache/lifetimes';
import { selectSections } from '../../db/sections';
import { HUB_OPTIONS_API, type HubOptions } from '../../../shared/listing-hub';
import type { ListingTypeRow, SubTypeRow } from './queries';
import { featureOptionsQuery, listingSubTypesQuery, listingTypesQuery, serviceOptionsQuery, typeOptions } from './queries';

// The hub filters' choices: listing types with their sub-types, neighbourhoods, subway stops,
// features and services. They change when editors add a type or a feature, not per request.
// - The hub page prints them as its plain GET form (the no-JavaScript filters).
// - The listing-search island fetches its copy from HUB_OPTIONS_API?v=<version> instead of
//   every hub page carrying it (21 KB of JSON, a quarter of the page gzipped, the same on
//   every hub): the version changes with the content, so the browser keeps the answer for a
//   year and a visitor going from hub to hub downloads it once.

export interface LoadedHubOptions {
  /** What the page's form prints and the routes look paths up in. */
  options: HubOptions;
  /** The same, serialised once for the island (which builds paths from slugs). */
  islandJson: string;
  /** A hash of islandJson: the island's URL names it, so a change is a new URL. */
  version: string;
}

/** The island's URL for these options. */
export const hubOptionsUrl = (o: LoadedHubOptions) => `${HUB_OPTIONS_API}?v=${o.version}`;

// Each app (its context: a test's rebuilt app starts cold) keeps them for a minute, loaded in
// one statement (db/sections.ts). The hub routes also find their type, sub-type and
// neighbourhood here, so a hub page whose options are cached runs only its search.
const optionsCache = new WeakMap<AppContext, MemoryCache<'options', LoadedHubOptions>>();

async function loadHubOptions(db: Db): Promise<LoadedHubOptions> {
  const rows = await selectSections(db, {
    types: listingTypesQuery(db),
    subTypes: listingSubTypesQuery(db),
    neighbourhoods: db('neighbourhoods').orderBy([{ column: 'name' }, { column: 'id' }]).select('id', 'name', 'slug'),
    subwayStops: db('subway_stops').orderBy([{ column: 'name' }, { column: 'id' }]).select('id', 'name'),
    features: featureOptionsQuery(db),
    services: serviceOptionsQuery(db),
  });
  const options: HubOptions = {
    types: typeOptions(rows.types as ListingTypeRow[], rows.subTypes as SubTypeRow[]),
    neighbourhoods: rows.neighbourhoods as HubOptions['neighbourhoods'],
    subwayStops: rows.subwayStops as HubOptions['subwayStops'],
    features: rows.features as HubOptions['features'],
    services: rows.services as HubOptions['services'],
  };
  const islandJson = JSON.stringify(options);
  return { options, islandJson, version: createHash('sha256').update(islandJson).digest('base64url').slice(0, 16) };
}

function optionsCacheOf(ctx: AppContext): MemoryCache<'options', LoadedHubOptions> {
  let cache = optionsCache.get(ctx);
  if (!cache) optionsCache.set(ctx, (cache = new MemoryCache<'options', LoadedHubOptions>({ ttlMs: HUB_OPTIONS_TTL_MS, maxEntries: 1 })));
  return cache;
}

export function loadedHubOptions(ctx: AppContext): Promise<LoadedHubOptions> {
  return optionsCacheOf(ctx).load('options', () => loadHubOptions(ctx.db));
}

export async function hubOptions(ctx: AppContext): Promise<HubOptions> {
  return (await loadedHubOptions(ctx)).options;
}

/**
 * What find picks from the cached options. A path the cache does not know costs one indexed
 * look-up: a type or neighbourhood added since the options were loaded reloads them, so it
 * never answers 404 for a minute; anything else stays a 404 without a reload.
 */
async function fromOptions<T>(ctx: AppContext, find: (o: HubOptions) => T | undefined, exists: () => Promise<unknown>): Promise<T | undefined> {
  const found = find(await hubOptions(ctx));
  if (found !== undefined || !(await exists())) return found;
  return find((await optionsCacheOf(ctx).refresh('options', () => loadHubOptions(ctx.db))).options);
}

/** The listing type a path names. */
export function hubListingType(ctx: AppContext, slug: string): Promise<ListingTypeRow | undefined> {
  return fromOptions(
    ctx,
    (o) => {
      const t = o.types.find((x) => x.slug === slug);
      return t && { id: t.id, name: t.name, slug: t.slug };
    },
    () => ctx.db('listing_types').where({ slug }).first('id'),
  );
}

/** A sub-type of type by its slug. */
export function hubSubType(ctx: AppContext, type: ListingTypeRow, slug: string): Promise<SubTypeRow | undefined> {
  return fromOptions(
    ctx,
    (o) => {
      const s = o.types.find((x) => x.id === type.id)?.sub_types.find((x) => x.slug === slug);
      return s && { id: s.id, type_id: type.id, name: s.name, slug: s.slug };
    },
    () => ctx.db('listing_sub_types').where({ type_id: type.id, slug }).first('id'),
  );
}

/** A neighbourhood by id. */
export function hubNeighbourhood(ctx: AppContext, id: number): Promise<{ id: number; name: string; slug: string } | undefined> {
  return fromOptions(ctx, (o) => o.neighbourhoods.find((n) => n.id === id), () => ctx.db('neighbourhoods').where({ id }).first('id'));
}
