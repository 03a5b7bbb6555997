import type { AppContext } from '../../context';
import { absoluteUrl, urls } from '../../../shared/urls';
import type { NewsletterIssue, NewsletterItem } from './newsletter-email';
import { newsletterName } from './unsubscribe-queries';
import type { NewsletterType } from './unsubscribe-token';
import { whereArticleIsPublic } from '../articles/queries';
import { whereEventIsPublic } from '../events/queries';
import { whereContestIsPublic } from '../contests/queries';
import { wherePhotoChallengeIsPublic } from '../photo-challenges/queries';

// The current issue of each newsletter, from what the site published: the latest articles of
// the matching section, the week's events, the open contests or photo challenges: only what
// the public may see, through each content app's visibility scope (where<Type>IsPublic).

const ITEMS = 8;
const WEEK_MS = 7 * 24 * 3600 * 1000;

/** The article section each article newsletter draws from; null for all sections (Top Stories). */
const ARTICLE_SECTIONS: Partial<Record<NewsletterType, string | null>> = { news: null, foods: 'food', real_estate: 'real-estate', travel: 'travel' };

export async function currentIssue(ctx: Pick<AppContext, 'db' | 'config' | 'now'>, type: NewsletterType): Promise<NewsletterIssue | null> {
  const { db, config } = ctx;
  const now = ctx.now();
  const site = config.site.url;
  let items: NewsletterItem[];
  if (type in ARTICLE_SECTIONS) {
    const section = ARTICLE_SECTIONS[type];
    const q = whereArticleIsPublic(db('articles as a').join('article_types as t', 't.id', 'a.type_id'), now);
    if (section) q.where('t.slug', section);
    const rows = await q.orderBy([{ column: 'a.date_published', order: 'desc' }, { column: 'a.id', order: 'desc' }]).limit(ITEMS).select('a.name', 'a.path', 'a.excerpt');
    items = rows.map((r) => ({ title: r.name, url: absoluteUrl(site, r.path), blurb: r.excerpt || undefined }));
  } else if (type === 'events') {
    const rows = await whereEventIsPublic(db('events as e'), now)
      .join('event_occurrences as o', 'o.event_id', 'e.id')
      .where('o.starts_at', '>=', now)
      .where('o.starts_at', '<', new Date(now.getTime() + WEEK_MS))
      .groupBy('e.id', 'e.slug', 'e.title', 'e.venue_name')
      .orderByRaw('min(o.starts_at), e.id')
      .limit(ITEMS)
      .select('e.id', 'e.slug', 'e.title', 'e.venue_name');
    items = rows.map((r) => ({ title: r.title, url: absoluteUrl(site, urls.event(r.slug, r.id)), blurb: r.venue_name || undefined }));
  } else if (type === 'contests' || type === 'promotions') {
    const rows = await whereContestIsPublic(db('contests as c'), now).where('c.start_date', '<=', now).where('c.end_date', '>', now).orderBy('c.end_date').limit(ITEMS).select('c.title', 'c.name', 'c.prize');
    items = rows.map((r) => ({ title: r.title, url: absoluteUrl(site, urls.contest(r.name)), blurb: r.prize || undefined }));
  } else {
    const rows = await wherePhotoChallengeIsPublic(db('photo_challenges as c'), now).where('c.end_date', '>', now).orderBy('c.end_date').limit(ITEMS).select('c.title', 'c.name', 'c.hashtag');
    items = rows.map((r) => ({ title: r.title, url: `${site}/photo-challenges/${r.name}/`, blurb: `#${r.hashtag}` }));
  }
  if (!items.length) return null;
  const name = newsletterName(type);
  return { subject: `${name} from ${config.site.name}`, intro: `The latest ${name} from ${config.site.name}.`, items };
}
