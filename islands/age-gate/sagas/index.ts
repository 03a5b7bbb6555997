import { call, getContext, put, select, takeEvery } from 'redux-saga/effects';
import { AGE_GATE_COOKIE, ageGateDecision, ageGateMaxAgeSeconds, type AgeGateDecision } from '../../../shared/age-gate';
import { gate, type GateState } from '../slices/gate';

// The gate's effects: reading the stored answer, storing the new one (30 days when
// remembered, else for the browser session) and leaving for / on a no. What they touch
// outside the store comes from the saga context so the tests run them with fakes.

export interface AgeGateSagaContext {
  readCookie: (name: string) => string | undefined;
  writeCookie: (name: string, value: string, opts: { maxAgeSeconds?: number }) => void;
  navigate: (url: string) => void;
}

function* ctx<K extends keyof AgeGateSagaContext>(key: K) {
  return (yield getContext(key)) as AgeGateSagaContext[K];
}

export function* checkFlow() {
  const read = yield* ctx('readCookie');
  const decision: AgeGateDecision = ageGateDecision(read(AGE_GATE_COOKIE));
  yield put(gate.checked(decision));
  // CASE: a stored "no" (spec 2 §4): the reader goes home
  if (decision === 'home') yield call(yield* ctx('navigate'), '/');
}

function* store(answer: 'true' | 'false') {
  const remember: boolean = yield select((s: { gate: GateState }) => s.gate.remember);
  yield call(yield* ctx('writeCookie'), AGE_GATE_COOKIE, answer, { maxAgeSeconds: ageGateMaxAgeSeconds(remember) });
}

export function* acceptFlow() {
  yield* store('true');
}

export function* declineFlow() {
  yield* store('false');
  yield call(yield* ctx('navigate'), '/');
}

export function* ageGateSaga() {
  yield takeEvery(gate.accepted.type, acceptFlow);
  yield takeEvery(gate.declined.type, declineFlow);
  yield call(checkFlow);
}
