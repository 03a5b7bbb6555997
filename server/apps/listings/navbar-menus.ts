import type { NavbarMenuEntry } from '../../http/navbar';
import { listingTypeLinksQuery, reviewedPlaceLinksQuery } from './queries';
import { navTitle } from '../../../shared/format/text';
import { urls } from '../../../shared/urls';

// The listings' links in the navbar (the registry hands them to the core, server/http/navbar.ts):
// every listing type's hub, in the types' own order, and the places' published reviews, which
// RECENT REVIEWS merges by date with the food stories (articles/navbar-menus.ts): the spec's
// Restaurants and Places menus both promise reviews, and a place's review is one.

const REVIEWS_SIZE = 5;

export const listingsNavbarMenus: readonly NavbarMenuEntry[] = [
  {
    menu: 'listingTypes',
    query: (db) => listingTypeLinksQuery(db),
    link: (row) => ({ name: String(row.name), path: `/${String(row.slug)}/` }),
  },
  {
    menu: 'recentReviews',
    query: (db) => reviewedPlaceLinksQuery(db, REVIEWS_SIZE),
    // The page's review section (templates/places/listing.njk #review).
    link: (row) => ({ name: navTitle(String(row.name)), path: `${urls.listing(String(row.type_slug), String(row.slug), Number(row.id))}#review` }),
    newest: { at: (row) => new Date(row.review_published_at as string), keep: REVIEWS_SIZE },
  },
];
