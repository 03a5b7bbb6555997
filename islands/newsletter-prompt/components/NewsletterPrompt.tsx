import { useId, type FormEvent } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { NEWSLETTER_COOKIE_DAYS } from '../../../shared/constants';
import { newsletterOfType } from '../../../shared/newsletter-prompt';
import { FieldError } from '../../common/FieldError';
import { prompt } from '../slices/prompt';
import type { NewsletterPromptRootState } from '../store';

// The prompt: a panel in the page's flow (it covers nothing), with the email, the
// promotional and all-newsletters choices, and a close button. After subscribing the
// success message replaces the form; after closing a short note says it will not come back
// for 30 days; either way the panel goes 3 seconds later.

/** The button pressed is gone from the panel: focus stays in it, on the message that replaced it. */
const keepFocus = (el: HTMLElement | null) => el?.focus({ preventScroll: true });

export function NewsletterPrompt({ siteName }: { siteName: string }) {
  const s = useSelector((r: NewsletterPromptRootState) => r.prompt);
  const dispatch = useDispatch();
  const ids = useId();
  if (s.status === 'checking' || s.status === 'gone') return null;
  const newsletter = newsletterOfType(s.type);
  const titleId = `${ids}-title`;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    dispatch(prompt.submitted(s.email));
  };
  return (
    <aside className="newsletter-prompt" aria-labelledby={titleId} data-status={s.status}>
      <h2 id={titleId} className="newsletter-prompt__title">
        {s.status === 'subscribed' ? 'Submitted' : `Get ${newsletter.name} from ${siteName}`}
      </h2>
      {(s.status === 'editing' || s.status === 'pending') && (
        <>
          <button type="button" className="newsletter-prompt__close" aria-label="Close the newsletter prompt" onClick={() => dispatch(prompt.closed())}>
            ×
          </button>
          <p className="newsletter-prompt__lede">
            {newsletter.name} comes {newsletter.schedule === 'no set schedule' ? 'now and then' : newsletter.schedule}, free. No account needed.
          </p>
          <form className="newsletter-prompt__form" onSubmit={submit} noValidate>
            <div className="field newsletter-prompt__email">
              <label htmlFor={`${ids}-email`}>Email address</label>
              <input
                id={`${ids}-email`}
                type="email"
                autoComplete="email"
                maxLength={255}
                value={s.email}
                aria-invalid={s.error ? true : undefined}
                aria-describedby={s.error ? `${ids}-email-error` : undefined}
                onChange={(e) => dispatch(prompt.edited({ email: e.target.value }))}
              />
              <FieldError id={`${ids}-email-error`} message={s.error ?? undefined} />
            </div>
            <label className="checkbox">
              <input type="checkbox" checked={s.promotions} onChange={(e) => dispatch(prompt.edited({ promotions: e.target.checked }))} /> Send me contests and promotions too
            </label>
            <label className="checkbox">
              <input type="checkbox" checked={s.all} onChange={(e) => dispatch(prompt.edited({ all: e.target.checked }))} /> Sign me up for all newsletters
            </label>
            <button type="submit" disabled={s.status === 'pending'}>
              {s.status === 'pending' ? 'Signing up…' : 'Sign up'}
            </button>
          </form>
        </>
      )}
      {s.status === 'subscribed' && (
        <p className="notice notice--success" role="status" tabIndex={-1} ref={keepFocus}>
          Thanks for signing up to our newsletter – we’re excited to have you on board. Expect to hear from us soon.
        </p>
      )}
      {s.status === 'closed' && (
        <p className="newsletter-prompt__note" role="status" tabIndex={-1} ref={keepFocus}>
          Got it. We won’t ask again for {NEWSLETTER_COOKIE_DAYS} days.
        </p>
      )}
    </aside>
  );
}
