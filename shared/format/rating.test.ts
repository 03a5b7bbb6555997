import { formatRating, formatRatingCount } from './rating';

describe('rating formatters', () => {
  it('prints two decimals or a dash', () => {
    expect(formatRating(4.5916)).toBe('4.59');
    expect(formatRating('5')).toBe('5.00');
    expect(formatRating(null)).toBe('-');
    expect(formatRating(undefined)).toBe('-');
  });

  it('counts ratings in words', () => {
    expect(formatRatingCount(22)).toBe('22 ratings');
    expect(formatRatingCount(1)).toBe('1 rating');
    expect(formatRatingCount(0)).toBe('No ratings');
  });
});
