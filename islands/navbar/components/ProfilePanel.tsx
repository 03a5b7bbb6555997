import type { ReactNode } from 'react';
import { CSRF_COOKIE, readCookie } from '../../common/api';
import { useNavbarDispatch, useNavbarSelector } from '../hooks';
import { session } from '../slices/session';
import { LoginForm } from './LoginForm';

/** Guests: the login panel. Members: 'Logged in as' and 'Log out now' (spec 2 §2). */
export function ProfilePanel({ currentUrl, avatar }: { currentUrl: string; avatar?: ReactNode }) {
  const user = useNavbarSelector((s) => s.session.user);
  const dispatch = useNavbarDispatch();
  // Log out is a POST with the CSRF token, as the page's own header form: a link would let
  // any site sign members out. The browser sends the form; the saga clears the stores first.
  const logout = () => {
    dispatch(session.logoutRequested());
  };
  return (
    <div className="nav-panel nav-panel--profile" id="nav-profile-panel" role="region" aria-label={user ? 'Your account' : 'Log in'}>
      {user ? (
        <>
          <p className="nav-panel__who">
            {avatar}
            Logged in as <a href="/accounts/dashboard/">{user.full_name || user.email}</a>
          </p>
          <p>
            <a href="/accounts/dashboard/">Your dashboard</a>
          </p>
          {user.is_staff && (
            <p>
              <a href="/staff/">Staff area</a>
            </p>
          )}
          <form method="post" action="/profiles/logout" onSubmit={logout} className="nav-panel__logout">
            <input type="hidden" name="csrfmiddlewaretoken" value={readCookie(CSRF_COOKIE) ?? ''} />
            <input type="hidden" name="next" value={currentUrl} />
            <button type="submit" className="link-button">
              Log out now
            </button>
          </form>
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
