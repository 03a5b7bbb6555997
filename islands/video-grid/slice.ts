import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { VideoDTO } from '../../shared/dto';

// The video grid's state (spec 2 §4): the videos the page printed, and the one playing. A
// thumbnail becomes the embedded player on click; starting another stops it (its player goes
// back to the thumbnail), so at most one plays.

export interface PlayerState {
  videos: Record<number, VideoDTO>;
  playingId: number | null;
}

export function playerStateFrom(videos: VideoDTO[]): PlayerState {
  return { videos: Object.fromEntries(videos.map((v) => [v.id, v])), playingId: null };
}

export const playerSlice = createSlice({
  name: 'player',
  initialState: playerStateFrom([]),
  reducers: {
    played(state, action: PayloadAction<number>) {
      if (state.videos[action.payload]) state.playingId = action.payload;
    },
    stopped(state) {
      state.playingId = null;
    },
  },
});

export const player = playerSlice.actions;

export interface VideoGridRootState {
  player: PlayerState;
}

export const selectIsPlaying = (id: number) => (s: VideoGridRootState) => s.player.playingId === id;
