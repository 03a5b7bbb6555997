import { ARTICLE_TYPES } from '../../../shared/constants';
import { navTitle } from '../../../shared/format/text';
import type { NavbarInitialState, NavbarSite, NavLink } from '../types';

const NEWS_ONLY = ARTICLE_TYPES.filter((t) => t.slug !== 'best-of');

function Submenu({ title, links, extra }: { title?: string; links: NavLink[]; extra?: NavLink[] }) {
  if (!links.length && !extra?.length) return null;
  return (
    <div className="navbar__submenu">
      {title && links.length > 0 && <p className="navbar__submenu-title">{title}</p>}
      {links.length > 0 && (
        <ul>
          {links.map((l) => (
            <li key={l.path}><a href={l.path}>{navTitle(l.name)}</a></li>
          ))}
        </ul>
      )}
      {extra && (
        <ul className="navbar__types">
          {extra.map((l) => (
            <li key={`${l.path} ${l.name}`}><a href={l.path}>{l.name}</a></li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The top items (spec 2 §2), by feature flags and news-only mode; submenus open on hover. */
export function TopItems({ site, menus }: { site: NavbarSite; menus: NonNullable<NavbarInitialState['menus']> }) {
  const { flags } = site;
  if (flags.newsOnly) {
    return (
      <ul className="navbar__items">
        {NEWS_ONLY.map((t) => (
          <li className="navbar__item" key={t.slug}><a href={`/${t.slug}/`}>{t.name}</a></li>
        ))}
      </ul>
    );
  }
  const articleTypes = [...ARTICLE_TYPES.map((t) => ({ name: t.name, path: `/${t.slug}/` })), { name: 'All News', path: '/news/' }];
  const moreSections = [...(flags.listings ? [{ name: 'Neighbourhoods', path: '/neighbourhoods/' }] : []), ...(flags.contests ? [{ name: 'Contests', path: '/contests/' }] : [])];
  return (
    <ul className="navbar__items">
      {flags.bestOf && <li className="navbar__item"><a href="/best-of/">Best Of {site.cityName}</a></li>}
      {flags.listings && (
        <li className="navbar__item navbar__item--menu">
          <a href="/restaurants/">Restaurants</a>
          <Submenu title="RECENT REVIEWS" links={menus.recentReviews} />
        </li>
      )}
      <li className="navbar__item navbar__item--menu">
        <a href="/news/">Latest News</a>
        <Submenu links={menus.latestArticles} extra={articleTypes} />
      </li>
      {flags.listings && (
        <li className="navbar__item navbar__item--menu">
          <a href="/places/">Places</a>
          <Submenu title="RECENT REVIEWS" links={menus.recentReviews} extra={[...menus.listingTypes, { name: 'All Places', path: '/places/' }]} />
        </li>
      )}
      {flags.events && <li className="navbar__item"><a href="/events/">Events</a></li>}
      {flags.patioGuide && flags.listings && <li className="navbar__item"><a href="/patios/">Patio Guide</a></li>}
      {moreSections.length > 0 && (
        <li className="navbar__item navbar__item--menu">
          {/* The text names the sections behind it: "More" alone tells a screen reader or a search engine nothing. */}
          <a href={moreSections[0].path}>
            More<span className="visually-hidden">: {moreSections.map((s) => s.name).join(', ')}</span>
          </a>
          <Submenu links={[]} extra={moreSections} />
        </li>
      )}
    </ul>
  );
}
