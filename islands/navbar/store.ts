import { createIslandStore } from '../common/store';
import { authDialogSlice, initialAuthDialogState, type AuthDialogState } from './slices/authDialog';
import { initialPanelsState, panelsSlice, type PanelsState } from './slices/panels';
import { sessionSlice, type SessionState } from './slices/session';
import { navbarSaga, type NavbarSagaContext } from './sagas';

export interface NavbarRootState {
  authDialog: AuthDialogState;
  panels: PanelsState;
  session: SessionState;
}

export const navbarReducer = { authDialog: authDialogSlice.reducer, panels: panelsSlice.reducer, session: sessionSlice.reducer };

export function createNavbarStore(preloadedState: Partial<NavbarRootState>, context: NavbarSagaContext) {
  return createIslandStore<NavbarRootState>({
    reducer: navbarReducer,
    saga: navbarSaga,
    preloadedState: { authDialog: initialAuthDialogState, panels: initialPanelsState, ...preloadedState },
    context: context as unknown as Record<string, unknown>,
  });
}

export type NavbarStore = ReturnType<typeof createNavbarStore>;
export type NavbarDispatch = NavbarStore['dispatch'];
