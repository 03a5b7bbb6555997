/** What a gated page prints for the island (server/apps/site-pages/age-gate.ts). */
export interface AgeGateInitialState {
  legalAge: number;
}
