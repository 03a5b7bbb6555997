import { SMART_REVIEW_DEFAULT_MEAN, smartReviewScore } from './score';

describe('smartReviewScore', () => {
  test('is the Bayesian average (C·m + sum) / (C + n) with C = 5', () => {
    expect(smartReviewScore(10, 2, 4)).toBeCloseTo((5 * 4 + 10) / 7);
  });
  test('uses 3.5 as the site mean before there is one', () => {
    expect(smartReviewScore(5, 1, null)).toBeCloseTo((5 * SMART_REVIEW_DEFAULT_MEAN + 5) / 6);
  });
  test('ranks many good ratings above one perfect rating', () => {
    expect(smartReviewScore(4.6 * 200, 200, 3.5)).toBeGreaterThan(smartReviewScore(5, 1, 3.5));
  });
  test('is 0 without ratings, as an unrated listing is', () => {
    expect(smartReviewScore(0, 0, 4)).toBe(0);
  });
});
