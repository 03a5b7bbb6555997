import { call, delay, getContext, put, select, takeLatest } from 'redux-saga/effects';
import type { PayloadAction } from '@reduxjs/toolkit';
import { TIMINGS_MS } from '../../../shared/constants';
import { PROMPT_COOKIE_MAX_AGE_SECONDS, promptCookieName } from '../../../shared/newsletter-prompt';
import { ApiError } from '../../common/api';
import type { GuestNewsletterBody, NewsletterPromptApi } from '../api';
import { prompt, type PromptState } from '../slices/prompt';

// The prompt's effects: read its cookie once, subscribe, remember a close for 30 days, and
// hide 3000 ms after subscribing or closing (spec 2 §4, §9).

export interface NewsletterPromptContext {
  api: NewsletterPromptApi;
  readCookie: (name: string) => string | undefined;
  writeCookie: (name: string, value: string, opts: { maxAgeSeconds?: number }) => void;
  /** The guest fields this site offers: what "all newsletters" ticks. */
  offered: string[];
}

function* ctx<K extends keyof NewsletterPromptContext>(key: K) {
  return (yield getContext(key)) as NewsletterPromptContext[K];
}

const state = (s: { prompt: PromptState }) => s.prompt;

/** The subscription asked for: this prompt's newsletter, promotions if ticked, every offered one if "all". */
export function subscriptionBody(s: PromptState, offered: string[]): GuestNewsletterBody {
  const body: GuestNewsletterBody = { email: s.email.trim(), [s.type]: true };
  if (s.promotions) body.promotions = true;
  if (s.all) for (const f of offered) body[f] = true;
  return body;
}

export function* checkFlow() {
  const read = yield* ctx('readCookie');
  const s: PromptState = yield select(state);
  yield put(prompt.checked({ cookie: read(promptCookieName(s.type)) !== undefined }));
}

function* rememberAndHide() {
  const s: PromptState = yield select(state);
  yield call(yield* ctx('writeCookie'), promptCookieName(s.type), '1', { maxAgeSeconds: PROMPT_COOKIE_MAX_AGE_SECONDS });
  yield delay(TIMINGS_MS.newsletterPromptHide);
  yield put(prompt.hidden());
}

export function* submitFlow(action: PayloadAction<{ valid: boolean }>) {
  if (!action.payload.valid) return;
  const s: PromptState = yield select(state);
  if (s.status !== 'pending') return;
  const api = yield* ctx('api');
  const offered = yield* ctx('offered');
  try {
    yield call(api.subscribe, subscriptionBody(s, offered));
    yield put(prompt.subscribed());
  } catch (err) {
    yield put(prompt.failed(err instanceof ApiError ? (err.first('email') ?? err.message) : 'Something went wrong. Please try again.'));
    return;
  }
  // A subscriber is not asked again either.
  yield* rememberAndHide();
}

export function* closeFlow() {
  const s: PromptState = yield select(state);
  if (s.status === 'closed') yield* rememberAndHide();
}

export function* newsletterPromptSaga() {
  yield takeLatest(prompt.submitted.type, submitFlow);
  yield takeLatest(prompt.closed.type, closeFlow);
  yield call(checkFlow);
}
