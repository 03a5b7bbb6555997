import { useEffect, useState } from 'react';
import { onProfileChanged, type ProfileChange } from '../../common/profile-events';
import { onLoginRequested } from '../../common/auth-events';
import { useNavbarDispatch, useNavbarSelector } from '../hooks';
import { authDialog } from '../slices/authDialog';
import { panels } from '../slices/panels';
import type { NavbarInitialState, NavbarSite } from '../types';
import { AuthDialogs } from './AuthDialogs';
import { ProfilePanel } from './ProfilePanel';
import { SearchPanel } from './SearchPanel';
import { SideMenu } from './SideMenu';
import { TopItems } from './TopItems';
import { pictureUrl } from '../../common/picture-url';

const NO_MENUS = { latestArticles: [], recentReviews: [], listingTypes: [] };

export interface NavbarProps {
  site: NavbarSite;
  menus?: NavbarInitialState['menus'];
  currentUrl: string;
}

export function Navbar({ site, menus, currentUrl }: NavbarProps) {
  const dispatch = useNavbarDispatch();
  const open = useNavbarSelector((s) => s.panels.open);
  const user = useNavbarSelector((s) => s.session.user);
  // Until the auth check answers, a visitor with the signed-in cookie is neither named nor asked to log in.
  const checking = useNavbarSelector((s) => s.session.status === 'unknown');

  // The dashboard on this page may change the name or photo: shown at once, no reload.
  const [changed, setChanged] = useState<ProfileChange | null>(null);
  useEffect(() => onProfileChanged(setChanged), []);
  const avatarUrl = changed ? changed.avatar_url : (user?.avatar_url ?? null);
  // Other islands ask for the login dialog with a DOM event (a guest's protected action).
  useEffect(() => onLoginRequested((req) => dispatch(authDialog.loginOpened(req))), [dispatch]);
  // Opening a dialog closes the panels.
  const dialogOpen = useNavbarSelector((s) => s.authDialog.open);
  useEffect(() => {
    if (dialogOpen) dispatch(panels.closed());
  }, [dialogOpen, dispatch]);

  return (
    <>
      <nav className="navbar is-enhanced" aria-label="Main">
        <button type="button" className="navbar__burger" aria-expanded={open === 'menu'} aria-controls="nav-side-menu" onClick={() => dispatch(panels.toggled('menu'))}>
          <span aria-hidden="true">☰</span>
          <span className="visually-hidden">Menu</span>
        </button>
        <a className="navbar__logo" href="/" aria-label={`${site.name} home`}>
          {site.name}
        </a>
        <TopItems site={site} menus={menus ?? NO_MENUS} />
        <div className="navbar__buttons">
          <button type="button" className="navbar__search-button" aria-expanded={open === 'search'} aria-controls="nav-search-panel" onClick={() => dispatch(panels.searchToggled())}>
            Search
          </button>
          <button type="button" className="navbar__profile-button" aria-expanded={open === 'profile'} aria-controls="nav-profile-panel" onClick={() => dispatch(panels.toggled('profile'))}>
            {user && <NavAvatar url={avatarUrl} size={28} />}
            <span className="navbar__profile-name">{user ? (changed?.full_name ?? user.full_name) || 'Account' : checking ? 'Account' : 'Log in'}</span>
          </button>
        </div>
        {open === 'profile' && <ProfilePanel currentUrl={currentUrl} avatar={<NavAvatar url={avatarUrl} size={45} />} />}
        {open === 'search' && <SearchPanel />}
        {open === 'menu' && <SideMenu site={site} />}
      </nav>
      <AuthDialogs />
    </>
  );
}

/** The member's face: the 80x80 rendition, 45 px wide in the profile panel (spec 1 §9), smaller in the bar. */
function NavAvatar({ url, size }: { url: string | null; size: number }) {
  if (!url) return null;
  return <img className={`navbar__avatar navbar__avatar--${size}`} src={pictureUrl(url)} alt="" width={size} height={size} />;
}
