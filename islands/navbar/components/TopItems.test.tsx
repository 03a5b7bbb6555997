/// <reference types="jest" />
import { render, within } from '@testing-library/react';
import { TopItems } from './TopItems';

// The Places submenu (spec 2 §2): recent reviews beside the listing types.

const flags = { listings: true, events: true, contests: true, videos: true, bestOf: true, photoChallenges: true, patioGuide: false, photoUpload: true, newsOnly: false };
const site = { name: 'The Toronto Guide', cityName: 'Toronto', flags };
const listingTypes = [{ name: 'Restaurants', path: '/restaurants/' }, { name: 'Bars', path: '/bars/' }];

function placesSubmenu(recentReviews: Array<{ name: string; path: string }>) {
  const { container, unmount } = render(<TopItems site={site} menus={{ latestArticles: [], recentReviews, listingTypes }} />);
  const places = [...container.querySelectorAll('.navbar__item')].find((li) => li.querySelector(':scope > a')?.textContent === 'Places') as HTMLElement;
  return { places, unmount };
}

describe('the Places submenu', () => {
  test('lists the recent reviews under their title, then the listing types and All Places', () => {
    const { places } = placesSubmenu([{ name: 'Review: a new ramen bar on Queen', path: '/food/2026/01/ramen/' }]);
    const submenu = within(places.querySelector('.navbar__submenu') as HTMLElement);
    expect(submenu.getByText('RECENT REVIEWS')).toBeTruthy();
    expect(submenu.getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Review: a new ramen bar on Queen', '/food/2026/01/ramen/'],
      ['Restaurants', '/restaurants/'],
      ['Bars', '/bars/'],
      ['All Places', '/places/'],
    ]);
  });

  test('without reviews: the types alone, no empty title', () => {
    const { places } = placesSubmenu([]);
    expect(places.textContent).not.toContain('RECENT REVIEWS');
    expect(within(places).getAllByRole('link').map((a) => a.textContent)).toEqual(['Places', 'Restaurants', 'Bars', 'All Places']);
  });
});
