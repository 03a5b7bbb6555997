import type { AppContext } from '../../context';
import { MemoryCache } from '../../cache/memory-cache';
import { changedKeys, changeTouches } from '../../cache/change-keys';
import { HUB_OPTIONS_TTL_MS, NEIGHBOURHOOD_BOUNDARY_TTL_MS } from '../../cache/lifetimes';
import type { MultiPolygon } from '../../views/boundary-svg';
import type { HubOptions } from '../../../shared/listing-hub';
import { listingTypeIdBySlug, loadHubOptions, neighbourhoodIdById, subTypeIdBySlug, type LoadedHubOptions } from './hub-option-queries';
import { readNeighbourhoodBoundary, type ListingTypeRow, type SubTypeRow } from './queries';

/** Boxed: a neighbourhood without a boundary is remembered too. */
type KeptBoundary = { polygon: MultiPolygon | null };

/**
 * The listing pages' and API's cached reads, one set per app (a test's rebuilt app starts
 * cold): the hub filters' options, and the hub paths' type, sub-type and neighbourhood looked
 * up in them; neighbourhoods' parsed boundaries for the listing pages.
 */
export function createListingsService(ctx: AppContext) {
  // Kept a minute, loaded in one statement (hub-option-queries.ts). The hub routes also find their
  // type, sub-type and neighbourhood here, so a hub page whose options are cached runs only its search.
  const optionsCache = new MemoryCache<'options', LoadedHubOptions>({ name: 'hub-options', ttlMs: HUB_OPTIONS_TTL_MS, maxEntries: 1 });
  // Boundaries are ~7 KB of JSON each and change only when the City redraws them: kept ten
  // minutes instead of reading and parsing one per listing page.
  const boundaryCache = new MemoryCache<number, KeptBoundary>({ name: 'neighbourhood-boundaries', ttlMs: NEIGHBOURHOOD_BOUNDARY_TTL_MS, maxEntries: 1000 });
  // Content changed (cache/change-notices.ts): the options list types, neighbourhoods and the
  // places' features, so a change naming places, a hub or a neighbourhood reloads them (one
  // statement); a neighbourhood's key drops its boundary. A story's or an event's change keeps
  // both; a change naming no keys (a reconnect) drops both.
  ctx.changes?.subscribe((change) => {
    if (changeTouches(change, ['places', 'hub-', 'neighbourhood-'])) optionsCache.clear();
    const keys = changedKeys(change);
    if (!keys) return boundaryCache.clear();
    for (const key of keys) {
      const id = /^neighbourhood-(\d+)$/.exec(key)?.[1];
      if (id) boundaryCache.delete(Number(id));
    }
  });

  const loadedHubOptions = (): Promise<LoadedHubOptions> => optionsCache.load('options', () => loadHubOptions(ctx.db));

  /**
   * What find picks from the cached options. A path the cache does not know costs one indexed
   * look-up: a type or neighbourhood added since the options were loaded reloads them, so it
   * never answers 404 for a minute; anything else stays a 404 without a reload.
   */
  async function fromOptions<T>(find: (o: HubOptions) => T | undefined, exists: () => Promise<unknown>): Promise<T | undefined> {
    const found = find((await loadedHubOptions()).options);
    if (found !== undefined || !(await exists())) return found;
    return find((await optionsCache.refresh('options', () => loadHubOptions(ctx.db))).options);
  }

  return {
    loadedHubOptions,

    /** The listing type a path names. */
    hubListingType(slug: string): Promise<ListingTypeRow | undefined> {
      return fromOptions(
        (o) => {
          const t = o.types.find((x) => x.slug === slug);
          return t && { id: t.id, name: t.name, slug: t.slug };
        },
        () => listingTypeIdBySlug(ctx.db, slug),
      );
    },

    /** A sub-type of type by its slug. */
    hubSubType(type: ListingTypeRow, slug: string): Promise<SubTypeRow | undefined> {
      return fromOptions(
        (o) => {
          const s = o.types.find((x) => x.id === type.id)?.sub_types.find((x) => x.slug === slug);
          return s && { id: s.id, type_id: type.id, name: s.name, slug: s.slug };
        },
        () => subTypeIdBySlug(ctx.db, type.id, slug),
      );
    },

    /** A neighbourhood by id. */
    hubNeighbourhood(id: number): Promise<{ id: number; name: string; slug: string } | undefined> {
      return fromOptions((o) => o.neighbourhoods.find((n) => n.id === id), () => neighbourhoodIdById(ctx.db, id));
    },

    /** A neighbourhood's boundary (null without a neighbourhood or a boundary), read from ctx.dbRead as the listing page is. */
    async neighbourhoodBoundary(id: number | null): Promise<MultiPolygon | null> {
      if (!id) return null;
      const kept = await boundaryCache.load(id, async () => ({ polygon: await readNeighbourhoodBoundary(ctx.dbRead, id) }));
      return kept.polygon;
    },
  };
}

export type ListingsService = ReturnType<typeof createListingsService>;
