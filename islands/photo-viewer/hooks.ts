import { useDispatch, useSelector } from 'react-redux';
import type { PhotoViewerRootState } from './slice';
import type { PhotoViewerDispatch } from './store';

export const useViewerDispatch = useDispatch.withTypes<PhotoViewerDispatch>();
export const useViewerSelector = useSelector.withTypes<PhotoViewerRootState>();
