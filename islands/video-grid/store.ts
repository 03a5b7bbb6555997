import { createIslandStore } from '../common/store';
import type { VideoDTO } from '../../shared/dto';
import { playerSlice, playerStateFrom, type VideoGridRootState } from './slice';

// One store for the page: every thumbnail (one React root each) shares it, so starting one
// stops the others.
export function createVideoGridStore(videos: VideoDTO[]) {
  return createIslandStore<VideoGridRootState>({
    reducer: { player: playerSlice.reducer },
    preloadedState: { player: playerStateFrom(videos) },
  });
}

export type VideoGridStore = ReturnType<typeof createVideoGridStore>;
export type VideoGridDispatch = VideoGridStore['dispatch'];
