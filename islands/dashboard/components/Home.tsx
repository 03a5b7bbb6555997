import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { LIMITS, TIMINGS_MS } from '../../../shared/constants';
import type { ProfileCountsDTO } from '../../../shared/dto';
import { FieldError } from '../../common/FieldError';
import { useDashboardSettings } from '../context';
import { plural, pickGreeting } from '../format';
import { useDashboardDispatch, useDashboardSelector } from '../hooks';
import { profileActions } from '../slices/profile';
import { PhotoSection } from './PhotoSection';
import { pictureUrl } from '../../common/picture-url';

// Dashboard home (spec 1 §2): a greeting panel with the photo, name and password sections,
// and the count boxes linking to each list.

export function Home({ random = Math.random }: { random?: () => number }) {
  const greeting = useMemo(() => pickGreeting(random), [random]);
  const profile = useDashboardSelector((s) => s.profile.data);
  return (
    <div className="dash-home">
      <section className="dash-panel dash-greeting" aria-labelledby="dash-greeting-title">
        <div className="dash-greeting__photo">
          {profile?.avatar_url ? <img src={pictureUrl(profile.avatar_url)} alt="" width={80} height={80} /> : <span className="dash-avatar" aria-hidden="true">{(profile?.full_name || profile?.email || '?').charAt(0).toUpperCase()}</span>}
        </div>
        <div className="dash-greeting__text">
          <h1 id="dash-greeting-title" className="dash-greeting__title">
            <span className="dash-greeting__hello">{greeting}</span> <span className="dash-greeting__name">{profile?.full_name || profile?.email}</span>
          </h1>
          <NameSection />
          <PhotoSection />
          <PasswordSection />
          <p className="dash-greeting__newsletter">
            <Link to="/newsletter/">Manage your email newsletters</Link>
          </p>
          <p className="dash-greeting__newsletter">
            <Link to="/your-data/">Download your data or delete your account</Link>
          </p>
        </div>
      </section>
      <CountBoxes />
    </div>
  );
}

function NameSection() {
  const dispatch = useDashboardDispatch();
  const { data, openSection, nameStatus, nameError } = useDashboardSelector((s) => s.profile);
  const saved = data?.full_name ?? '';
  const [name, setName] = useState(saved);
  const blurTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const open = openSection === 'name';
  // A pending blur close dies with the open form: once another section opened, the name
  // form's timer has nothing left to close (spec 1 §4 "opening one closes the others").
  useEffect(() => () => void (blurTimer.current && clearTimeout(blurTimer.current)), [open]);
  if (!open) {
    return (
      <button
        type="button"
        className="button--quiet dash-link"
        onClick={() => {
          setName(saved);
          dispatch(profileActions.sectionOpened('name'));
        }}
      >
        Edit name
      </button>
    );
  }
  const unchanged = name.trim() === saved.trim();
  const cancelBlur = () => {
    if (blurTimer.current) clearTimeout(blurTimer.current);
    blurTimer.current = null;
  };
  const save = () => {
    cancelBlur();
    if (!unchanged && nameStatus !== 'saving') dispatch(profileActions.nameSaveRequested(name));
  };
  const cancel = () => {
    cancelBlur();
    setName(saved);
    dispatch(profileActions.sectionClosed('name'));
  };
  return (
    <form
      className="dash-name-form"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
      onFocus={cancelBlur}
      // Leaving the form closes it after 250 ms, unless focus came back (a click on Save)
      onBlur={() => {
        cancelBlur();
        blurTimer.current = setTimeout(cancel, TIMINGS_MS.nameBlur);
      }}
    >
      <label htmlFor="dash-name">Your name</label>
      <input
        id="dash-name"
        autoFocus
        value={name}
        maxLength={LIMITS.nameMax}
        aria-describedby="dash-name-counter"
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            cancel();
          }
        }}
      />
      <p id="dash-name-counter" className="dash-counter">
        {LIMITS.nameMax - name.length} characters remaining
      </p>
      <FieldError message={nameError ?? undefined} />
      <div className="dash-actions">
        <button type="submit" disabled={unchanged || nameStatus === 'saving'}>
          Save
        </button>
        <button type="button" className="button--secondary" onClick={cancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

const MISMATCH = "The two password fields didn't match.";

function PasswordSection() {
  const dispatch = useDashboardDispatch();
  const { openSection, passwordStatus, passwordErrors } = useDashboardSelector((s) => s.profile);
  const [mismatch, setMismatch] = useState(false);
  if (openSection !== 'password') {
    return (
      <button type="button" className="button--quiet dash-link" onClick={() => dispatch(profileActions.sectionOpened('password'))}>
        Change password
      </button>
    );
  }
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const current = String(f.get('current_password') ?? '');
    const next = String(f.get('new_password') ?? '');
    const repeat = String(f.get('new_password_repeat') ?? '');
    setMismatch(next !== repeat);
    if (next !== repeat) return;
    dispatch(profileActions.passwordChangeRequested({ current_password: current, new_password: next }));
  };
  if (passwordStatus === 'succeeded') {
    return (
      <p className="dash-success" role="status">
        Your password has been changed.
      </p>
    );
  }
  return (
    <form className="dash-password-form" onSubmit={submit} noValidate>
      <label htmlFor="dash-pw-current">Current password</label>
      <input id="dash-pw-current" name="current_password" type="password" autoComplete="current-password" required />
      <FieldError message={passwordErrors.current_password} />
      <label htmlFor="dash-pw-new">New password</label>
      <input id="dash-pw-new" name="new_password" type="password" autoComplete="new-password" required />
      <FieldError message={passwordErrors.new_password} />
      <label htmlFor="dash-pw-repeat">Repeat new password</label>
      <input id="dash-pw-repeat" name="new_password_repeat" type="password" autoComplete="new-password" required />
      <FieldError message={mismatch ? MISMATCH : passwordErrors.non_field_errors} />
      <div className="dash-actions">
        <button type="submit" disabled={passwordStatus === 'saving'}>
          Change password
        </button>
        <button type="button" className="button--secondary" onClick={() => dispatch(profileActions.sectionClosed())}>
          Cancel
        </button>
      </div>
    </form>
  );
}

interface BoxDef {
  key: keyof ProfileCountsDTO;
  to: string;
  singular: string;
  plural: string;
  /** What the box holds, shown under the count (spec 1 §2 "a count and a description"). */
  description: string;
  show: boolean;
}

export function CountBoxes() {
  const counts = useDashboardSelector((s) => s.counts);
  const { flags } = useDashboardSettings();
  const boxes: BoxDef[] = [
    { key: 'favourite_count', to: '/favourites/', singular: 'Favourite', plural: 'Favourites', description: 'The places you love, in a list and on a map.', show: flags.listings },
    { key: 'todos_count', to: '/todos/', singular: 'To-Do', plural: 'To-Dos', description: "Places you've been meaning to check out.", show: flags.listings },
    { key: 'bookmark_count', to: '/articles/', singular: 'Saved Article', plural: 'Saved Articles', description: 'Stories you saved to read later.', show: true },
    { key: 'saved_events_count', to: '/events/', singular: 'Saved Event', plural: 'Saved Events', description: "Events you don't want to miss.", show: flags.events },
    { key: 'ratings_count', to: '/ratings/', singular: 'Rated Place', plural: 'Rated Places', description: "Places you've rated with stars.", show: flags.listings },
    { key: 'photo_count', to: '/photos/', singular: 'Photo', plural: 'Photos', description: 'Photos you shared of places around the city.', show: flags.listings },
    { key: 'video_bookmarks_count', to: '/videos/', singular: 'Saved Video', plural: 'Saved Videos', description: 'Videos you saved to watch later.', show: flags.videos },
  ];
  if (!counts) {
    return (
      <section className="dash-counts dash-counts--loading" aria-busy="true" aria-label="Your saved things">
        <p className="dash-placeholder">Loading your counts…</p>
      </section>
    );
  }
  return (
    <section className="dash-counts" aria-label="Your saved things">
      <ul className="dash-counts__list">
        {boxes
          .filter((b) => b.show)
          .map((b) => {
            const n = counts[b.key];
            return (
              <li key={b.key} className="dash-count" data-count={b.key}>
                <Link to={b.to}>
                  {n > 0 && <span className="dash-count__n">{n}</span>}
                  <span className="dash-count__label">{n > 0 ? plural(n, b.singular, b.plural) : `No ${b.plural}`}</span>
                  <span className="dash-count__description">{b.description}</span>
                </Link>
              </li>
            );
          })}
      </ul>
    </section>
  );
}
