import { useDispatch, useSelector } from 'react-redux';
import type { SavesDispatch, SavesRootState } from './store';

export const useSavesDispatch = useDispatch.withTypes<SavesDispatch>();
export const useSavesSelector = useSelector.withTypes<SavesRootState>();
