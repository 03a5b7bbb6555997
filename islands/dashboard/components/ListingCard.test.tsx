/// <reference types="jest" />
import '../../common/test-polyfills';
import { render } from '@testing-library/react';
import { ListingCard } from './shared';
import { listing } from '../testing';

// Favourites, to-dos and rated places print a place's rating with its number of votes: the
// rating is a damped average, and without the count 4.59 above 5.00 reads as a mistake.
describe('dashboard ListingCard', () => {
  test('prints the rating with its count', () => {
    const { container, rerender } = render(<ListingCard listing={listing(1, { rating: 4.5916, rating_count: 22 })} />);
    expect(container.textContent).toContain('Rating: 4.59 · 22 ratings');
    rerender(<ListingCard listing={listing(1, { rating: 5, rating_count: 1 })} />);
    expect(container.textContent).toContain('Rating: 5.00 · 1 rating');
    rerender(<ListingCard listing={listing(1, { rating: null, rating_count: 0 })} />);
    expect(container.textContent).toContain('Rating: - · No ratings');
  });
});
