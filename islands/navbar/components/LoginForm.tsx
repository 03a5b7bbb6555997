import { useId, type FormEvent } from 'react';
import { FieldError } from '../../common/FieldError';
import { useNavbarDispatch, useNavbarSelector } from '../hooks';
import { authDialog } from '../slices/authDialog';
import { SocialLogin } from './SocialLogin';

/** The login form, used by the guest's profile panel and by the login dialog. */
export function LoginForm() {
  const dispatch = useNavbarDispatch();
  const { status, errors, open } = useNavbarSelector((s) => s.authDialog);
  const id = useId();
  // The panel's form shows no errors from a dialog's request, and vice versa.
  const shown = open === 'login' || open === null ? errors : {};
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    dispatch(authDialog.loginRequested({ email: String(data.get('email') ?? '').trim(), password: String(data.get('password') ?? '') }));
  };
  return (
    <form className="auth-form" onSubmit={submit} noValidate aria-busy={status === 'loading'}>
      <FieldError message={shown.non_field_errors} />
      <label htmlFor={`${id}-email`}>Email</label>
      <input id={`${id}-email`} name="email" type="email" maxLength={255} autoComplete="email" required aria-invalid={Boolean(shown.email)} />
      <FieldError message={shown.email} />
      <label htmlFor={`${id}-password`}>Password</label>
      <input id={`${id}-password`} name="password" type="password" maxLength={255} autoComplete="current-password" required aria-invalid={Boolean(shown.password)} />
      <FieldError message={shown.password} />
      <button type="submit" disabled={status === 'loading'}>
        {status === 'loading' ? 'Logging in…' : 'Log in'}
      </button>
      <p className="auth-form__links">
        <button type="button" className="link-button" onClick={() => dispatch(authDialog.resetOpened())}>
          Forgot your password?
        </button>{' '}
        <button type="button" className="link-button" onClick={() => dispatch(authDialog.signupOpened())}>
          New here? Sign up
        </button>
      </p>
      <SocialLogin />
    </form>
  );
}
