import { createIslandStore } from '../common/store';
import { gateSlice, initialGateState, type GateState } from './slices/gate';
import { ageGateSaga, type AgeGateSagaContext } from './sagas';

export interface AgeGateRootState {
  gate: GateState;
}

export function createAgeGateStore(legalAge: number, context: AgeGateSagaContext) {
  return createIslandStore<AgeGateRootState>({
    reducer: { gate: gateSlice.reducer },
    saga: ageGateSaga,
    preloadedState: { gate: initialGateState(legalAge) },
    context: context as unknown as Record<string, unknown>,
  });
}

export type AgeGateStore = ReturnType<typeof createAgeGateStore>;
