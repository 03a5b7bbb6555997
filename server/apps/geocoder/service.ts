import type { AppContext } from '../../context';
import { gazetteerFor } from './loader';
import { geocode, type GeocodeResult } from './queries';

// GET /api/v2/geocode/?q=: a query against the in-memory gazetteer (queries.ts).

export type GeocoderService = ReturnType<typeof createGeocoderService>;

/**
 * Built once per app by the registry (apps/index.ts) for the geocoder API. The gazetteer it
 * reads stays kept per database by loader.ts, not here: event submissions place addresses
 * with the same one (queries.ts pointOfAddress), and a second copy would cost as much memory.
 */
export function createGeocoderService({ db }: Pick<AppContext, 'db'>) {
  return {
    /** The look-up of `q`, at most MAX_RESULTS answers. */
    async geocode(q: string): Promise<GeocodeResult[]> {
      return geocode(await gazetteerFor(db), q);
    },
  };
}
