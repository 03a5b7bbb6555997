import { combineReducers, configureStore, type Reducer, type ReducersMapObject } from '@reduxjs/toolkit';
import createSagaMiddleware, { type Saga } from 'redux-saga';

// One store per island: its slices, one root saga for its side effects, and the state the
// page printed as the starting point. `context` carries what sagas must not import directly
// (navigation, timers) so tests can replace it.

export interface IslandStoreOptions<S> {
  reducer: ReducersMapObject<S>;
  saga?: Saga;
  preloadedState?: Partial<S>;
  context?: Record<string, unknown>;
}

export function createIslandStore<S>({ reducer, saga, preloadedState, context }: IslandStoreOptions<S>) {
  const sagaMiddleware = createSagaMiddleware({ context });
  const store = configureStore({
    reducer: combineReducers(reducer) as unknown as Reducer<S>,
    preloadedState: preloadedState as S | undefined,
    middleware: (getDefault) => getDefault({ thunk: false }).concat(sagaMiddleware),
  });
  if (saga) sagaMiddleware.run(saga);
  return store;
}
