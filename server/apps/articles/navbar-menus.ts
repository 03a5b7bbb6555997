import type { Db } from '../../db';
import type { NavbarMenuEntry } from '../../http/navbar';
import { navTitle } from '../../../shared/format/text';
import { whereArticleIsPublic } from './queries';

// The articles' links in the navbar (the registry hands them to the core, server/http/navbar.ts):
// the latest stories and the recent food reviews, newest first.

const MENU_SIZE = 5;

function articleLinks(db: Db, now: Date, typeSlug?: string) {
  const q = whereArticleIsPublic(db('articles as a').join('article_types as t', 't.id', 'a.type_id'), now)
    .orderBy([{ column: 'a.date_published', order: 'desc' }, { column: 'a.id', order: 'desc' }])
    .limit(MENU_SIZE)
    .select('a.name', 'a.path');
  if (typeSlug) q.where('t.slug', typeSlug);
  // The cannabis section sits behind the age gate: its titles stay out of every page's menu.
  else q.whereNot('t.slug', 'cannabis');
  return q;
}

const articleLink = (row: Record<string, unknown>) => ({ name: navTitle(String(row.name)), path: String(row.path) });

export const articlesNavbarMenus: readonly NavbarMenuEntry[] = [
  { menu: 'latestArticles', query: (db, now) => articleLinks(db, now), link: articleLink },
  { menu: 'recentReviews', query: (db, now) => articleLinks(db, now, 'food'), link: articleLink },
];
