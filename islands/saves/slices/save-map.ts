import type { PayloadAction } from '@reduxjs/toolkit';

// The shape every saved-id slice shares: object id → save (an id, or {id, rating} for
// ratings), which objects have a call in flight, and whether the map has been read.

export interface SaveMapState<V> {
  map: Record<string, V>;
  pending: Record<string, true>;
  loaded: boolean;
}

export const emptySaveMap = <V>(): SaveMapState<V> => ({ map: {}, pending: {}, loaded: false });

export interface ObjectPayload {
  objectId: number;
}

/** Case reducers on one SaveMapState; `pick` finds it in the slice's state. */
export function saveMapReducers<V, S, P extends object = object>(pick: (state: S, payload: P) => SaveMapState<V>) {
  return {
    mapLoaded(state: S, action: PayloadAction<P & { map: Record<string, V> }>) {
      const m = pick(state, action.payload);
      m.map = action.payload.map;
      m.loaded = true;
    },
    /** Optimistic create, a create's answer, or a rollback of a failed delete. */
    saved(state: S, action: PayloadAction<P & ObjectPayload & { value: V }>) {
      pick(state, action.payload).map[String(action.payload.objectId)] = action.payload.value;
    },
    /** Optimistic delete, or a rollback of a failed create. */
    removed(state: S, action: PayloadAction<P & ObjectPayload>) {
      delete pick(state, action.payload).map[String(action.payload.objectId)];
    },
    pendingChanged(state: S, action: PayloadAction<P & ObjectPayload & { pending: boolean }>) {
      const m = pick(state, action.payload);
      if (action.payload.pending) m.pending[String(action.payload.objectId)] = true;
      else delete m.pending[String(action.payload.objectId)];
    },
  };
}
