/// <reference types="jest" />
import { boundsOf, geometryPoints, listingPoints, listingPopupHtml, MAP, neighbourhoodListingsPath } from './geo';
import { listing } from '../../listing-search/testing';

const ctx = { siteUrl: 'https://site.test', cityName: 'Toronto' };

describe('map helpers', () => {
  test('the constants of spec 2 §9', () => {
    expect(MAP).toMatchObject({ singleZoom: 15, defaultZoom: 12, minZoom: 10, popupWidthListing: 454, popupWidth: 300 });
  });

  test('a listing popup: name, address search, tel: link, View Review, best-of sticker; text is escaped', () => {
    const html = listingPopupHtml(listing(4, { name: 'Bar <b>&</b>', appears_in_best_of_lists: true, distance: 1.234 }), ctx);
    expect(html).toContain('<a href="/restaurants/place-4-4/">Bar &lt;b&gt;&amp;&lt;/b&gt;</a>');
    expect(html).toContain('href="tel:4165550100"');
    expect(html).toContain('https://www.openstreetmap.org/search?query=4%20Augusta%20Ave%2C%20Toronto');
    expect(html).toContain('<a class="button" href="/restaurants/place-4-4/#review">View Review</a>');
    expect(html).toContain('Best of Toronto');
    expect(html).toContain('1.23 km');
    const noShare = listingPopupHtml(listing(5, { share_url: '', review_url: null, website: 'javascript:alert(1)' }), ctx);
    expect(noShare).not.toContain('View');
    // No published review: the website, else the place's page (issue 39).
    expect(listingPopupHtml(listing(6, { review_url: null }), ctx)).toContain('href="https://example.com" rel="nofollow noopener">View Website</a>');
    expect(listingPopupHtml(listing(6, { review_url: null }), ctx)).not.toContain('View Review');
    expect(listingPopupHtml(listing(7, { review_url: null, website: '' }), ctx)).toContain('<a class="button" href="/restaurants/place-7-7/">View Place</a>');
  });

  test('a listing popup links category, sub-category and neighbourhood pages, the website and food safety (spec 2 §2 "Maps")', () => {
    const html = listingPopupHtml(
      listing(8, { sub_type: { id: 3, name: 'Pizza', slug: 'pizza', share_url: 'https://site.test/restaurants/pizza/' }, dinesafe_establishment_id: 10234567 }),
      ctx,
    );
    expect(html).toContain('<p class="map-popup__kicker"><a href="/restaurants/">Restaurants</a> › <a href="/restaurants/pizza/">Pizza</a> · <a href="/restaurants/n/7/kensington/">Kensington</a></p>');
    expect(html).toContain('<a href="https://example.com" rel="nofollow noopener">Website</a>');
    expect(html).toContain('>Food safety inspections</a>');
    const plain = listingPopupHtml(listing(9, { default_neighborhood: null, dinesafe_establishment_id: null }), ctx);
    expect(plain).toContain('<p class="map-popup__kicker"><a href="/restaurants/">Restaurants</a></p>');
    expect(plain).not.toContain('Food safety');
    expect(listingPopupHtml(listing(10, { type: { id: 1, name: 'A <b>', slug: 'a', share_url: 'https://site.test/a/' } }), ctx)).toContain('>A &lt;b&gt;</a>');
  });

  test('markers skip places without coordinates; the neighbourhood path is type share_url + n/ + id + path', () => {
    const pts = listingPoints([listing(1), listing(2, { coordinates: null }), listing(3, { appears_in_best_of_lists: true })], ctx, 1);
    expect(pts.map((p) => [p.id, p.kind])).toEqual([[1, 'main'], [3, 'best-of']]);
    expect(neighbourhoodListingsPath(listing(1), ctx.siteUrl)).toBe('/restaurants/n/7/kensington/');
    expect(boundsOf(pts)!.map((n) => Math.round(n * 1000) / 1000)).toEqual([-79.4, 43.651, -79.4, 43.653]);
    expect(geometryPoints({ type: 'MultiPolygon', coordinates: [[[[-79.4, 43.6], [-79.3, 43.7]]]] })).toEqual([{ longitude: -79.4, latitude: 43.6 }, { longitude: -79.3, latitude: 43.7 }]);
  });
});
