import { useEffect, useState, type ReactNode } from 'react';
import { Provider, useDispatch, useSelector } from 'react-redux';
import { MemoryRouter, Navigate, NavLink, Route, Routes, useNavigate } from 'react-router-dom';
import { LIMITS, NEWSLETTERS, TIMINGS_MS, type FeatureFlags } from '../../shared/constants';
import type { ProfileDTO } from '../../shared/dto';
import { createIslandStore } from '../common/store';
import { FieldError } from '../common/FieldError';
import { onboardingSaga, profileActions, profileSlice, type OnboardingSagaContext, type ProfilePatch, type ProfileState } from './onboarding';

// The onboarding wizard (spec 1 §2): in-memory routes /step-1 … /step-4 under a tab header,
// then /final, which thanks the member and goes to the next-page URL after 3 seconds.

export interface OnboardingRootState {
  profile: ProfileState;
}

export function createOnboardingStore(profile: ProfileDTO | null, context: OnboardingSagaContext) {
  const store = createIslandStore<OnboardingRootState>({
    reducer: { profile: profileSlice.reducer },
    saga: onboardingSaga,
    preloadedState: { profile: { data: profile, status: profile ? 'ready' : 'idle', errors: {} } },
    context: context as unknown as Record<string, unknown>,
  });
  if (!profile) store.dispatch(profileActions.profileRequested());
  return store;
}
export type OnboardingStore = ReturnType<typeof createOnboardingStore>;

const useProfile = () => useSelector((s: OnboardingRootState) => s.profile);

export interface OnboardingProps {
  next: string;
  flags: FeatureFlags;
  facebookPageUrl: string | null;
  /** The site's name on the social page's card. */
  siteName?: string;
  /** Leaves for the next page; window.location.assign in the browser. */
  leave: (url: string) => void;
}

const STEPS = [
  { path: '/step-1', label: 'Welcome' },
  { path: '/step-2', label: 'Your dashboard' },
  { path: '/step-3', label: 'Newsletters' },
  { path: '/step-4', label: 'Stay in touch' },
];

function Step({ children }: { children: ReactNode }) {
  return (
    <div className="onb">
      <nav className="onb-tabs" aria-label="Steps">
        <ol>
          {STEPS.map((s, i) => (
            <li key={s.path}>
              <NavLink to={s.path} className={({ isActive }) => `onb-tab${isActive ? ' is-active' : ''}`} onClick={(e) => e.preventDefault()} tabIndex={-1}>
                <span className="onb-tab__n">{i + 1}</span> {s.label}
              </NavLink>
            </li>
          ))}
        </ol>
      </nav>
      <section className="onb-step">{children}</section>
    </div>
  );
}

function Step1() {
  const go = useNavigate();
  const profile = useProfile().data;
  return (
    <Step>
      <h1 className="onb-title">Hi there!</h1>
      <p>
        Welcome{profile?.full_name ? `, ${profile.full_name}` : ''}. Your account is ready: a couple of quick steps and you're all set.
      </p>
      <button type="button" onClick={() => go('/step-2')}>
        Next Step
      </button>
    </Step>
  );
}

function Step2() {
  const go = useNavigate();
  return (
    <Step>
      <h1 className="onb-title">Your own dashboard</h1>
      <p>Save articles, events, videos and your favourite places, keep a to-do list of spots to try, and rate the places you've been. It's all on your dashboard.</p>
      <button type="button" onClick={() => go('/step-3')}>
        Got it, what's next?
      </button>
    </Step>
  );
}

type Choices = Record<string, boolean>;

function Step3({ flags }: { flags: FeatureFlags }) {
  const go = useNavigate();
  const dispatch = useDispatch();
  const { data, status, errors } = useProfile();
  const newsletters = NEWSLETTERS.filter((n) => !n.requires || flags[n.requires]);
  const initialChoices = (): Choices => Object.fromEntries(newsletters.map((n) => [n.id, Boolean(data?.[n.id as keyof ProfileDTO])]));
  const [email, setEmail] = useState(data?.email ?? '');
  const [choices, setChoices] = useState<Choices>(initialChoices);
  const [submitted, setSubmitted] = useState(false);

  useEffect(() => {
    if (submitted && status === 'saved') go('/step-4');
  }, [submitted, status, go]);

  const submit = () => {
    const before = initialChoices();
    const changed = newsletters.filter((n) => choices[n.id] !== before[n.id]);
    const emailChanged = email.trim() !== (data?.email ?? '');
    // CASE: nothing changed: no request, straight on
    if (!emailChanged && !changed.length) return go('/step-4');
    const patch: ProfilePatch = { email: email.trim(), ...choices };
    setSubmitted(true);
    dispatch(profileActions.saveRequested(patch));
  };
  return (
    <Step>
      <h1 className="onb-title">Want more?</h1>
      <p>Get the best of the city in your inbox. Choose your newsletters:</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <ul className="dash-checks">
          {newsletters.map((n) => (
            <li key={n.id}>
              <label>
                <input type="checkbox" checked={choices[n.id]} onChange={(e) => setChoices({ ...choices, [n.id]: e.target.checked })} /> <strong>{n.name}</strong> <span className="dash-muted">({n.schedule})</span>
              </label>
            </li>
          ))}
        </ul>
        <label htmlFor="onb-email">Email</label>
        <input id="onb-email" type="email" value={email} maxLength={LIMITS.emailMax} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />
        <FieldError message={errors.email ?? errors.non_field_errors} />
        <div className="dash-actions">
          <button type="submit" disabled={!email.trim() || status === 'saving'}>
            One more step
          </button>
        </div>
      </form>
    </Step>
  );
}

function Step4({ facebookPageUrl, siteName }: { facebookPageUrl: string | null; siteName: string }) {
  const go = useNavigate();
  return (
    <Step>
      <h1 className="onb-title">Thumbs up!</h1>
      <p>Like our page to get the city's best stories in your feed.</p>
      {facebookPageUrl && <SocialPageWidget url={facebookPageUrl} siteName={siteName} />}
      <button type="button" onClick={() => go('/final')}>
        Huzzah, all done!
      </button>
    </Step>
  );
}

/**
 * The social page's card (spec 1 §2 step 4). Drawn by us rather than the network's own
 * plugin, which would load its scripts and cookies into the page before anyone asked.
 */
export function SocialPageWidget({ url, siteName }: { url: string; siteName: string }) {
  return (
    <aside className="onb-social" aria-label={`${siteName} on Facebook`}>
      <span className="onb-social__logo" aria-hidden="true">
        f
      </span>
      <div className="onb-social__body">
        <p className="onb-social__name">{siteName}</p>
        <p className="onb-social__meta">Our page on Facebook</p>
      </div>
      <a className="button onb-social__like" href={url} target="_blank" rel="noopener noreferrer">
        Like our page<span className="visually-hidden"> (opens in a new tab)</span>
      </a>
    </aside>
  );
}

export const FINAL_TEXT = "Thanks! Your account has been created. In a moment you'll be taken to your user dashboard.";

function Final({ next, leave }: { next: string; leave: (url: string) => void }) {
  useEffect(() => {
    const t = setTimeout(() => leave(next), TIMINGS_MS.onboardingRedirect);
    return () => clearTimeout(t);
  }, [next, leave]);
  return (
    <div className="onb onb-final">
      <p className="onb-title" role="status">
        {FINAL_TEXT}
      </p>
    </div>
  );
}

export function OnboardingRoutes(props: OnboardingProps) {
  const { status, data } = useProfile();
  if (!data) {
    return (
      <div className="onb onb-loading" role="status" aria-busy={status === 'loading'}>
        <span className="dash-spinner" aria-hidden="true" /> {status === 'failed' ? 'Your profile could not be loaded. Please reload the page.' : 'Loading…'}
      </div>
    );
  }
  return (
    <Routes>
      <Route path="/" element={<Navigate to="/step-1" replace />} />
      <Route path="/step-1" element={<Step1 />} />
      <Route path="/step-2" element={<Step2 />} />
      <Route path="/step-3" element={<Step3 flags={props.flags} />} />
      <Route path="/step-4" element={<Step4 facebookPageUrl={props.facebookPageUrl} siteName={props.siteName ?? 'us'} />} />
      <Route path="/final" element={<Final next={props.next} leave={props.leave} />} />
      <Route path="*" element={<Navigate to="/step-1" replace />} />
    </Routes>
  );
}

export function OnboardingApp({ store, initialPath = '/', ...props }: OnboardingProps & { store: OnboardingStore; initialPath?: string }) {
  return (
    <Provider store={store}>
      <MemoryRouter initialEntries={[initialPath]}>
        <OnboardingRoutes {...props} />
      </MemoryRouter>
    </Provider>
  );
}
