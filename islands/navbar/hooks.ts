import { useDispatch, useSelector } from 'react-redux';
import type { NavbarDispatch, NavbarRootState } from './store';

export const useNavbarDispatch = useDispatch.withTypes<NavbarDispatch>();
export const useNavbarSelector = useSelector.withTypes<NavbarRootState>();
