import type { Page } from '../../shared/dto';
import type { HubEvent } from '../../shared/events-hub';
import { EVENTS_HUB } from '../../shared/constants';
import { api } from '../common/api';

// The one call this island makes: GET /api/v2/events/ (spec 2 §7), always in the hub's
// ordering and the medium bundle (spec 2 §9: events load more with bundle_type medium).
export interface EventsHubApi {
  events(query: { date: string | null; offset: number; limit: number }): Promise<Page<HubEvent>>;
}

export const eventsHubApi: EventsHubApi = {
  events: ({ date, offset, limit }) =>
    api.get<Page<HubEvent>>('/api/v2/events/', { date, offset, limit, ordering: EVENTS_HUB.ordering, bundle_type: EVENTS_HUB.bundleType }),
};
