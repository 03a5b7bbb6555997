import type { NavbarMenuEntry } from '../../http/navbar';
import { listingTypeLinksQuery } from './queries';

// The listings' links in the navbar (the registry hands them to the core, server/http/navbar.ts):
// every listing type's hub, in the types' own order.

export const listingsNavbarMenus: readonly NavbarMenuEntry[] = [
  {
    menu: 'listingTypes',
    query: (db) => listingTypeLinksQuery(db),
    link: (row) => ({ name: String(row.name), path: `/${String(row.slug)}/` }),
  },
];
