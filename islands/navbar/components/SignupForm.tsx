import { useId, useState, type FormEvent } from 'react';
import { FieldError } from '../../common/FieldError';
import { useNavbarDispatch, useNavbarSelector } from '../hooks';
import { authDialog } from '../slices/authDialog';

export const PASSWORD_MISMATCH = "The two passwords fields didn't match.";

export function SignupForm() {
  const dispatch = useNavbarDispatch();
  const { status, errors } = useNavbarSelector((s) => s.authDialog);
  const [mismatch, setMismatch] = useState(false);
  const id = useId();
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const password = String(data.get('password') ?? '');
    const same = password === String(data.get('password_confirm') ?? '');
    setMismatch(!same);
    if (same) dispatch(authDialog.signupRequested({ email: String(data.get('email') ?? '').trim(), password }));
  };
  return (
    <form className="auth-form" onSubmit={submit} noValidate aria-busy={status === 'loading'}>
      <FieldError message={errors.non_field_errors} />
      <label htmlFor={`${id}-email`}>Email</label>
      <input id={`${id}-email`} name="email" type="email" maxLength={255} autoComplete="email" required aria-invalid={Boolean(errors.email)} />
      <FieldError message={errors.email} />
      <label htmlFor={`${id}-password`}>Password</label>
      <input id={`${id}-password`} name="password" type="password" maxLength={255} autoComplete="new-password" required aria-invalid={Boolean(errors.password)} />
      <FieldError message={errors.password} />
      <label htmlFor={`${id}-confirm`}>Repeat password</label>
      <input id={`${id}-confirm`} name="password_confirm" type="password" maxLength={255} autoComplete="new-password" required aria-invalid={mismatch} />
      <FieldError message={mismatch ? PASSWORD_MISMATCH : undefined} />
      <button type="submit" disabled={status === 'loading'}>
        {status === 'loading' ? 'Signing up…' : 'Sign up'}
      </button>
      <p className="auth-form__links">
        <button type="button" className="link-button" onClick={() => dispatch(authDialog.loginOpened())}>
          Already a member? Log in
        </button>
      </p>
    </form>
  );
}
