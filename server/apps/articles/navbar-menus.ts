import type { NavbarMenuEntry } from '../../http/navbar';
import { navTitle } from '../../../shared/format/text';
import { articleLinksQuery } from './queries';

// The articles' links in the navbar (the registry hands them to the core, server/http/navbar.ts):
// the latest stories and the recent food reviews, newest first.

const MENU_SIZE = 5;

const articleLink = (row: Record<string, unknown>) => ({ name: navTitle(String(row.name)), path: String(row.path) });

export const articlesNavbarMenus: readonly NavbarMenuEntry[] = [
  { menu: 'latestArticles', query: (db, now) => articleLinksQuery(db, now, MENU_SIZE), link: articleLink },
  // Merged by date with the places' published reviews (listings/navbar-menus.ts).
  { menu: 'recentReviews', query: (db, now) => articleLinksQuery(db, now, MENU_SIZE, 'food'), link: articleLink, newest: { at: (row) => new Date(row.date_published as string), keep: MENU_SIZE } },
];
