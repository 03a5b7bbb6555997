import { createSlice } from '@reduxjs/toolkit';
import { emptySaveMap, saveMapReducers, type SaveMapState } from './save-map';

/** Listing id → to-do id (GET /api/v2/todos/listing_ids/). */
export type TodosState = SaveMapState<number>;

export const todosSlice = createSlice({
  name: 'todos',
  initialState: emptySaveMap<number>(),
  reducers: saveMapReducers<number, TodosState>((s) => s),
});

export const todos = todosSlice.actions;
