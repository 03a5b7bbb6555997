import { readCookie, CSRF_COOKIE } from '../../common/api';
import type { NavbarSite } from '../types';

/** The hamburger menu: the 'More' links and the newsletter signup block. */
export function SideMenu({ site }: { site: NavbarSite }) {
  const { flags } = site;
  return (
    <div className="nav-panel nav-panel--menu side-menu" id="nav-side-menu" role="region" aria-label="Menu">
      <ul className="side-menu__links">
        {!flags.newsOnly && flags.bestOf && <li><a href="/best-of/">Best Of {site.cityName}</a></li>}
        <li><a href="/news/">Latest News</a></li>
        {!flags.newsOnly && flags.listings && <li><a href="/places/">All Places</a></li>}
        {!flags.newsOnly && flags.events && <li><a href="/events/">Events</a></li>}
        {!flags.newsOnly && flags.listings && <li><a href="/neighbourhoods/">Neighbourhoods</a></li>}
        {!flags.newsOnly && flags.contests && <li><a href="/contests/">Contests</a></li>}
        {flags.videos && <li><a href="/videos/">Videos</a></li>}
        {!flags.newsOnly && flags.patioGuide && flags.listings && <li><a href="/patios/">Patio Guide</a></li>}
        {!flags.newsOnly && flags.photoChallenges && <li><a href="/photo-challenges/">Photo Challenges</a></li>}
        <li><a href="/newsletters/">Newsletters</a></li>
        <li><a href="/contact/">Contact</a></li>
      </ul>
      <form className="side-menu__newsletter" action="/newsletters/" method="post">
        <input type="hidden" name="csrfmiddlewaretoken" value={readCookie(CSRF_COOKIE) ?? ''} />
        <input type="hidden" name="news" value="true" />
        <label htmlFor="side-menu-newsletter-email">Get the newsletter</label>
        <input id="side-menu-newsletter-email" name="email" type="email" maxLength={255} required autoComplete="email" placeholder="Your email" />
        <button type="submit">Sign up</button>
      </form>
    </div>
  );
}
