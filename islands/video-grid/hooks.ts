import { useDispatch, useSelector } from 'react-redux';
import type { VideoGridRootState } from './slice';
import type { VideoGridDispatch } from './store';

export const useVideoGridDispatch = useDispatch.withTypes<VideoGridDispatch>();
export const useVideoGridSelector = useSelector.withTypes<VideoGridRootState>();
