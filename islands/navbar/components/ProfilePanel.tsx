import type { MouseEvent } from 'react';
import { useNavbarDispatch, useNavbarSelector } from '../hooks';
import { session } from '../slices/session';
import { LoginForm } from './LoginForm';

/** Guests: the login panel. Members: 'Logged in as' and 'Log out now' (spec 2 §2). */
export function ProfilePanel({ currentUrl }: { currentUrl: string }) {
  const user = useNavbarSelector((s) => s.session.user);
  const dispatch = useNavbarDispatch();
  const logoutHref = `/profiles/logout?next=${encodeURIComponent(currentUrl)}`;
  const logout = (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    dispatch(session.logoutRequested({ href: logoutHref }));
  };
  return (
    <div className="nav-panel nav-panel--profile" id="nav-profile-panel" role="region" aria-label={user ? 'Your account' : 'Log in'}>
      {user ? (
        <>
          <p className="nav-panel__who">
            Logged in as <a href="/accounts/dashboard/">{user.full_name || user.email}</a>
          </p>
          <p>
            <a href="/accounts/dashboard/">Your dashboard</a>
          </p>
          <p>
            <a href={logoutHref} onClick={logout} className="nav-panel__logout">
              Log out now
            </a>
          </p>
        </>
      ) : (
        <>
          <h2 className="nav-panel__title">Log in</h2>
          <LoginForm />
        </>
      )}
    </div>
  );
}
