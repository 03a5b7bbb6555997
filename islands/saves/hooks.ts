import { useDispatch, useSelector } from 'react-redux';
import type { SavesDispatch, SavesRootState } from './store';

export const useSavesDispatch = useDispatch.withTypes<SavesDispatch>();
export const useSavesSelector = useSelector.withTypes<SavesRootState>();

/**
 * A control waits (busy) while the auth check is outstanding, and for a member until the map
 * it shows is read: a click then would act on what is not known yet.
 */
export function awaitingMap(s: SavesRootState, loaded: boolean): boolean {
  return !s.profile.memberChecked || (Boolean(s.profile.member) && !loaded);
}
