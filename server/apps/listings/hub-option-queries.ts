import { createHash } from 'node:crypto';
import type { Db } from '../../db';
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

/** The options, read in one statement (db/sections.ts); the listings service keeps them a minute per app. */
export async function loadHubOptions(db: Db): Promise<LoadedHubOptions> {
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

// The hub routes' look-ups of a path the cached options do not know (service.ts): one indexed
// read each, to tell a type or neighbourhood added since the options were loaded from a 404.

/** The id of the listing type with this slug, if there is one. */
export async function listingTypeIdBySlug(db: Db, slug: string): Promise<{ id: number } | undefined> {
  return db('listing_types').where({ slug }).first('id');
}

/** The id of this type's sub-type with this slug, if there is one. */
export async function subTypeIdBySlug(db: Db, typeId: number, slug: string): Promise<{ id: number } | undefined> {
  return db('listing_sub_types').where({ type_id: typeId, slug }).first('id');
}

/** The neighbourhood's id when a neighbourhood has this id. */
export async function neighbourhoodIdById(db: Db, id: number): Promise<{ id: number } | undefined> {
  return db('neighbourhoods').where({ id }).first('id');
}
