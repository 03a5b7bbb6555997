import type { SiteConfigDTO } from '../../shared/dto';
import type { IslandName, IslandStates } from '../../shared/islands';

// The page embeds the islands' initial state once, as JSON in #initial-state, and the site
// config in #site-config. This module is the only reader of those tags, so no component
// reads the DOM for data and no island fetches what the page already printed.

function readJson<T>(id: string, fallback: T): T {
  const el = typeof document !== 'undefined' ? document.getElementById(id) : null;
  if (!el?.textContent) return fallback;
  try {
    return JSON.parse(el.textContent) as T;
  } catch {
    return fallback;
  }
}

let cachedState: Partial<IslandStates> | null = null;
let cachedConfig: SiteConfigDTO | null = null;

/** The state the server's addIsland printed for the island: typed by the one map both use. */
export function initialStateFor<N extends IslandName>(island: N): IslandStates[N] | undefined {
  cachedState ??= readJson<Partial<IslandStates>>('initial-state', {});
  return cachedState[island];
}

export function siteConfig(): SiteConfigDTO {
  cachedConfig ??= readJson<SiteConfigDTO>('site-config', {
    name: '',
    url: '',
    city: { name: '', slug: '', latitude: 0, longitude: 0 },
    country: { name: '', code: '' },
    timeZone: 'Canada/Eastern',
    startYear: 2004,
    flags: { listings: true, events: true, contests: true, videos: true, bestOf: true, photoChallenges: true, patioGuide: true, photoUpload: true, newsOnly: false },
  });
  return cachedConfig;
}
