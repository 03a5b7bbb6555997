/** What a gated page prints for the island: in shared/islands.ts, the server's and islands' one map. */
export type { AgeGateInitialState } from '../../shared/islands';
