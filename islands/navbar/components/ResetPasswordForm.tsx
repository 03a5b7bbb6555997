import { useId, type FormEvent } from 'react';
import { FieldError } from '../../common/FieldError';
import { useNavbarDispatch, useNavbarSelector } from '../hooks';
import { authDialog } from '../slices/authDialog';

export function ResetPasswordForm() {
  const dispatch = useNavbarDispatch();
  const { status, errors, resetPasswordSuccessful, resetEmail } = useNavbarSelector((s) => s.authDialog);
  const id = useId();
  if (resetPasswordSuccessful) {
    return (
      <p role="status" className="auth-form__success">
        An email has been sent to {resetEmail}. Click the link in the email to reset your password.
      </p>
    );
  }
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    dispatch(authDialog.resetRequested({ email: String(new FormData(e.currentTarget).get('email') ?? '').trim() }));
  };
  return (
    <form className="auth-form" onSubmit={submit} noValidate aria-busy={status === 'loading'}>
      <p>Enter your email address and we'll send you a link to choose a new password.</p>
      <label htmlFor={`${id}-email`}>Email</label>
      <input id={`${id}-email`} name="email" type="email" maxLength={255} autoComplete="email" required aria-invalid={Boolean(errors.email)} />
      <FieldError message={errors.email ?? errors.non_field_errors} />
      <button type="submit" disabled={status === 'loading'}>
        {status === 'loading' ? 'Sending…' : 'Send the link'}
      </button>
    </form>
  );
}
