import { useNavbarDispatch, useNavbarSelector } from '../hooks';
import { authDialog } from '../slices/authDialog';
import { useSocial } from '../context';
import { signInWithApple } from '../apple';

/** Facebook (a link, only when configured) and Sign in with Apple (only when configured). */
export function SocialLogin() {
  const social = useSocial();
  const dispatch = useNavbarDispatch();
  const redirect = useNavbarSelector((s) => s.authDialog.redirect);
  if (!social.facebook && !social.apple) return null;
  const next = redirect ?? (typeof window !== 'undefined' ? window.location.pathname + window.location.search : '/');
  return (
    <div className="auth-form__social">
      {social.facebook && (
        <a className="button button--facebook" href={`/profiles/facebook-login/?next=${encodeURIComponent(next)}`}>
          Log in with Facebook
        </a>
      )}
      {social.apple && social.appleClientId && (
        <button
          type="button"
          className="button button--apple"
          onClick={() => {
            signInWithApple(social.appleClientId!).then(
              (idToken) => dispatch(authDialog.appleLoginRequested({ idToken })),
              (err) => console.warn('Sign in with Apple cancelled or failed', err),
            );
          }}
        >
          Sign in with Apple
        </button>
      )}
    </div>
  );
}
