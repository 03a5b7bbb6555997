import { createIslandStore } from '../common/store';
import type { EventsHubInitialState } from '../../shared/events-hub';
import { hubSlice, initialHubState, type HubState } from './slices/hub';
import { eventsHubSaga, type EventsHubContext } from './sagas';

export interface EventsHubRootState {
  hub: HubState;
}

export function createEventsHubStore(initial: EventsHubInitialState, context: EventsHubContext) {
  return createIslandStore<EventsHubRootState>({
    reducer: { hub: hubSlice.reducer },
    saga: eventsHubSaga,
    preloadedState: { hub: initialHubState(initial) },
    context: { ...context },
  });
}

export type EventsHubStore = ReturnType<typeof createEventsHubStore>;
