import { useState } from 'react';
import { LIMITS, NEWSLETTERS } from '../../../shared/constants';
import { FieldError } from '../../common/FieldError';
import type { NewsletterField } from '../api';
import { useDashboardSettings } from '../context';
import { useDashboardDispatch, useDashboardSelector } from '../hooks';
import { profileActions } from '../slices/profile';

// Email Newsletters (spec 1 §2): the email panel with its edit, and one box per newsletter
// the enabled sections offer. Each box saves on change.

export function Newsletter() {
  const dispatch = useDashboardDispatch();
  const { flags } = useDashboardSettings();
  const { data, openSection, emailStatus, emailError, newsletterError } = useDashboardSelector((s) => s.profile);
  const [email, setEmail] = useState(data?.email ?? '');
  const editing = openSection === 'email';
  const newsletters = NEWSLETTERS.filter((n) => !n.requires || flags[n.requires]);
  if (!data) return null;
  return (
    <div className="dash-newsletter">
      <h1 className="dash-title">Email Newsletters</h1>
      <section className="dash-panel" aria-labelledby="dash-email-title">
        <h2 id="dash-email-title" className="dash-subtitle">
          Email
        </h2>
        {editing ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              dispatch(profileActions.emailSaveRequested(email));
            }}
          >
            <label htmlFor="dash-email">Email address</label>
            <input id="dash-email" type="email" value={email} maxLength={LIMITS.emailMax} autoFocus onChange={(e) => setEmail(e.target.value)} />
            <FieldError message={emailError ?? undefined} />
            <div className="dash-actions">
              <button type="submit" disabled={!email.trim() || email.trim() === data.email || emailStatus === 'saving'}>
                Save
              </button>
              <button type="button" className="button--secondary" onClick={() => dispatch(profileActions.sectionClosed())}>
                Cancel
              </button>
            </div>
          </form>
        ) : (
          <p className="dash-email">
            <span>{data.email}</span>{' '}
            <button
              type="button"
              className="button--quiet"
              onClick={() => {
                setEmail(data.email);
                dispatch(profileActions.sectionOpened('email'));
              }}
            >
              Edit
            </button>
          </p>
        )}
      </section>
      <section className="dash-panel" aria-labelledby="dash-nl-title">
        <h2 id="dash-nl-title" className="dash-subtitle">
          Newsletters
        </h2>
        <ul className="dash-checks">
          {newsletters.map((n) => (
            <li key={n.id}>
              <label>
                <input type="checkbox" checked={Boolean(data[n.id as NewsletterField])} onChange={(e) => dispatch(profileActions.newsletterToggled({ field: n.id as NewsletterField, value: e.target.checked }))} />{' '}
                <strong>{n.name}</strong> <span className="dash-muted">({n.schedule})</span>
              </label>
            </li>
          ))}
        </ul>
        <FieldError message={newsletterError ?? undefined} />
      </section>
    </div>
  );
}
