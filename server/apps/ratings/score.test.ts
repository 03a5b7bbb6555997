import { ratingRank, SMART_REVIEW_PRIOR_MEAN, smartReviewScore } from '../listings/smart-review';

describe('ratingRank', () => {
  test('is the Bayesian average (C·m + sum) / (C + n) with C = 5 and the prior m = 3.5', () => {
    expect(SMART_REVIEW_PRIOR_MEAN).toBe(3.5);
    expect(ratingRank({ n: 2, sum: 10 })).toBeCloseTo((5 * 3.5 + 10) / 7);
  });
  test('needs several votes to climb: one 5-star vote ranks below forty averaging 4.6 and below six 4s', () => {
    const one = ratingRank({ n: 1, sum: 5 })!;
    expect(ratingRank({ n: 40, sum: 184 })!).toBeGreaterThan(one);
    expect(ratingRank({ n: 6, sum: 24 })!).toBeGreaterThan(one);
    // ...while three 5-star votes do beat a single one.
    expect(ratingRank({ n: 3, sum: 15 })!).toBeGreaterThan(one);
  });
  test('is null without ratings, so unrated places sort last', () => {
    expect(ratingRank({ n: 0, sum: 0 })).toBeNull();
  });
});

describe('smartReviewScore', () => {
  test('lifts the rank by up to 10% when every rating is recent', () => {
    const stale = smartReviewScore({ n: 10, sum: 45, recent: 0 });
    const fresh = smartReviewScore({ n: 10, sum: 45, recent: 10 });
    expect(stale).toBeCloseTo(ratingRank({ n: 10, sum: 45 })!);
    expect(fresh).toBeCloseTo(stale * 1.1);
  });
  test('is 0 without ratings, as an unrated listing is', () => {
    expect(smartReviewScore({ n: 0, sum: 0, recent: 0 })).toBe(0);
  });
});
