// The story renderer lives in shared/story-render.ts, so that apps below articles (a place's
// review on the listings page, issue 39) render documents the same way; this keeps its old address.
export * from '../../../shared/story-render';
