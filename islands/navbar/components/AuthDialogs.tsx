import { Dialog } from '../../common/Dialog';
import { useNavbarDispatch, useNavbarSelector } from '../hooks';
import { authDialog } from '../slices/authDialog';
import { LoginForm } from './LoginForm';
import { SignupForm } from './SignupForm';
import { ResetPasswordForm } from './ResetPasswordForm';

const TITLES = { login: 'Log in', signup: 'Sign up', reset: 'Reset your password' } as const;

/** At most one of the three dialogs is open; which one is the slice's `open`. */
export function AuthDialogs() {
  const open = useNavbarSelector((s) => s.authDialog.open);
  const dispatch = useNavbarDispatch();
  if (!open) return null;
  return (
    <Dialog key={open} title={TITLES[open]} className={`dialog--${open}`} onClose={() => dispatch(authDialog.closed())}>
      {open === 'login' && <LoginForm />}
      {open === 'signup' && <SignupForm />}
      {open === 'reset' && <ResetPasswordForm />}
    </Dialog>
  );
}
