import { useState } from 'react';
import { awaitingMap, useSavesDispatch, useSavesSelector } from '../hooks';
import { ratings } from '../slices/ratings';

// Five stars (spec 2 §4, spec 1 §4 "Rating"): choosing a different star asks to confirm or
// cancel ('Edit to N star rating:' when already rated, else 'Confirm N star rating:'); confirm
// saves and shows 'Thanks for rating!' for 1.6 s; cancel restores the previous value. A guest's
// star opens the login dialog with the rating remembered.

const STARS = [1, 2, 3, 4, 5];

export function RatingStars({ listingId, name }: { listingId: number; name?: string }) {
  const dispatch = useSavesDispatch();
  const member = useSavesSelector((s) => s.profile.member);
  const saved = useSavesSelector((s) => s.ratings.map[listingId]);
  const busy = useSavesSelector((s) => Boolean(s.ratings.pending[listingId]) || awaitingMap(s, s.ratings.loaded));
  const thanked = useSavesSelector((s) => Boolean(s.ratings.thanked[listingId]));
  const [chosen, setChosen] = useState<number | null>(null);
  const shown = chosen ?? saved?.rating ?? 0;

  const choose = (n: number) => {
    if (!member) return void dispatch(ratings.rateRequested({ listingId, rating: n }));
    setChosen(n === saved?.rating ? null : n);
  };
  const confirm = () => {
    if (chosen === null) return;
    dispatch(ratings.rateRequested({ listingId, rating: chosen }));
    setChosen(null);
  };

  return (
    <div className="rating-stars">
      <div role="group" aria-label={name ? `Your rating of ${name}` : 'Your rating'} className="rating-stars__stars">
        {STARS.map((n) => (
          <button
            key={n}
            type="button"
            className={`rating-stars__star ${n <= shown ? 'is-on' : ''}`}
            aria-label={`${n} ${n === 1 ? 'star' : 'stars'}`}
            aria-pressed={n === shown}
            disabled={busy}
            onClick={() => choose(n)}
          >
            <span aria-hidden="true">{n <= shown ? '★' : '☆'}</span>
          </button>
        ))}
      </div>
      <div className="rating-stars__status" aria-live="polite">
        {chosen !== null && (
          <span className="rating-stars__confirm">
            {saved ? `Edit to ${chosen} star rating:` : `Confirm ${chosen} star rating:`}{' '}
            <button type="button" className="rating-stars__ok" onClick={confirm}>
              Confirm
            </button>{' '}
            <button type="button" className="rating-stars__cancel" onClick={() => setChosen(null)}>
              Cancel
            </button>
          </span>
        )}
        {chosen === null && thanked && <span className="rating-stars__thanks">Thanks for rating!</span>}
      </div>
    </div>
  );
}
