import { createIslandStore } from '../common/store';
import { eventFormSaga, type EventFormContext } from './sagas';
import { eventFormSlice, type EventFormState } from './slice';

export interface EventFormRootState {
  eventForm: EventFormState;
}

export function createEventFormStore(preloaded: EventFormState, context: EventFormContext) {
  return createIslandStore<EventFormRootState>({
    reducer: { eventForm: eventFormSlice.reducer },
    saga: eventFormSaga,
    preloadedState: { eventForm: preloaded },
    context: { eventForm: context },
  });
}

export type EventFormStore = ReturnType<typeof createEventFormStore>;
