import { useEffect, useState, type ReactNode } from 'react';
import { Dialog } from '../../common/Dialog';
import { nextOffset, type ListState } from '../../common/list-state';
import type { PageRequest } from '../../common/list-state';
import { useDashboardDispatch } from '../hooks';
import { useDashboardSettings, useRouteArrival } from '../context';
import { isMobileDevice } from '../format';
import type { PayloadAction } from '@reduxjs/toolkit';
import { restoresPlace, savedOrdering } from '../navigation';
import { pictureUrl } from '../../common/picture-url';
import { placeholderImageUrl } from '../../../shared/format/placeholder-image';
import { formatRating, formatRatingCount } from '../../../shared/format/rating';
import { closingBadge } from '../../../shared/place-closing';

// Pieces every list screen shares: first load, 'Load more', the delete confirmation, the
// empty state, sort tabs and star ratings.

type PageRequester = (req?: PageRequest) => PayloadAction<PageRequest | undefined>;

/**
 * Loads the first page when the screen opens and the list was never loaded: sorted as the
 * member last sorted it on a refresh, Back or resumed visit (the history cache, navigation.ts),
 * with the list's own sort on a new navigation.
 */
export function useFirstPage(list: ListState<unknown>, pageRequested: PageRequester & { type: string }): void {
  const dispatch = useDashboardDispatch();
  const restores = restoresPlace(useRouteArrival());
  useEffect(() => {
    if (list.count >= 0 || list.isFetching) return;
    const ordering = restores ? savedOrdering(pageRequested.type.split('/')[0]) : undefined;
    dispatch(pageRequested(ordering === undefined ? { offset: 0 } : { offset: 0, ordering }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [list.count]);
}

export function LoadMore({ list, pageRequested }: { list: ListState<unknown>; pageRequested: PageRequester }) {
  const dispatch = useDashboardDispatch();
  const offset = nextOffset(list);
  if (offset === null) return null;
  return (
    <div className="dash-more">
      <button type="button" className="button button--secondary" disabled={list.isFetching} onClick={() => dispatch(pageRequested({ offset }))}>
        {list.isFetching ? 'Loading…' : 'Load more'}
      </button>
    </div>
  );
}

/** 'Delete' opens a confirmation; confirming deletes and closes, cancelling closes (spec 1 §4). */
export function DeleteButton({ what, label, onConfirm }: { what: string; label: string; onConfirm: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="dash-delete" aria-label={`Delete ${label}`} onClick={() => setOpen(true)}>
        Delete
      </button>
      {open && (
        <Dialog title={`Delete this ${what}?`} onClose={() => setOpen(false)} className="dash-confirm">
          <p>
            <strong>{label}</strong> will be removed from your dashboard.
          </p>
          <div className="dash-confirm__actions">
            <button
              type="button"
              onClick={() => {
                setOpen(false);
                onConfirm();
              }}
            >
              Yes, delete this {what}
            </button>
            <button type="button" className="button--secondary" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </Dialog>
      )}
    </>
  );
}

export function EmptyState({ children, appLink = false }: { children: ReactNode; appLink?: boolean }) {
  const { iosAppUrl } = useDashboardSettings();
  return (
    <div className="dash-empty">
      <p>{children}</p>
      {appLink && iosAppUrl && !isMobileDevice() && (
        <p>
          <a href={iosAppUrl}>Get our iPhone app</a> to save places and stories on the go.
        </p>
      )}
    </div>
  );
}

export interface SortTab {
  label: string;
  ordering: string;
}

export function SortTabs({ tabs, current, onChange }: { tabs: readonly SortTab[]; current: string | null; onChange: (ordering: string) => void }) {
  return (
    <div className="dash-sort" role="group" aria-label="Sort by">
      {tabs.map((t) => (
        <button key={t.ordering} type="button" className={`dash-sort__tab${t.ordering === current ? ' is-active' : ''}`} aria-pressed={t.ordering === current} onClick={() => onChange(t.ordering)}>
          {t.label}
        </button>
      ))}
    </div>
  );
}

/** Five radio stars; `value` 0 means not rated. */
export function Stars({ value, onChange, label }: { value: number; onChange: (n: number) => void; label: string }) {
  return (
    <fieldset className="dash-stars">
      <legend className="visually-hidden">{label}</legend>
      {[1, 2, 3, 4, 5].map((n) => (
        <label key={n} className={`dash-stars__star${n <= value ? ' is-on' : ''}`}>
          <input type="radio" name={label} value={n} checked={value === n} aria-label={`${n} star${n === 1 ? '' : 's'}`} onChange={() => onChange(n)} />
          <span aria-hidden="true">★</span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * Editable stars with the confirm flow of spec 1 §4: choosing a value asks 'Edit to N star
 * rating:' (or 'Confirm N star rating:' when unrated); Confirm saves and thanks for 1.6 s,
 * Cancel restores the previous value.
 */
export function RatingEditor({ value, label, onConfirm, thanksMs = 1600 }: { value: number; label: string; onConfirm: (n: number) => void; thanksMs?: number }) {
  const [chosen, setChosen] = useState<number | null>(null);
  const [thanks, setThanks] = useState(false);
  useEffect(() => {
    if (!thanks) return;
    const t = setTimeout(() => setThanks(false), thanksMs);
    return () => clearTimeout(t);
  }, [thanks, thanksMs]);
  return (
    <div className="dash-rating">
      <Stars value={chosen ?? value} onChange={(n) => setChosen(n === value ? null : n)} label={label} />
      {chosen !== null && (
        <div className="dash-rating__confirm">
          <span>{value > 0 ? `Edit to ${chosen} star rating:` : `Confirm ${chosen} star rating:`}</span>
          <button
            type="button"
            onClick={() => {
              onConfirm(chosen);
              setChosen(null);
              setThanks(true);
            }}
          >
            Confirm
          </button>
          <button type="button" className="button--secondary" onClick={() => setChosen(null)}>
            Cancel
          </button>
        </div>
      )}
      {thanks && <p className="dash-rating__thanks" role="status">Thanks for rating!</p>}
    </div>
  );
}

/**
 * A card's picture: our own images as the card rendition, outside ones (video thumbnails) as
 * they are, and the category placeholder when there is none or it fails to load
 * (static/js/image-fallback.js reads data-fallback).
 */
export function CardImage({ src, placeholder }: { src: string | null | undefined; placeholder: string }) {
  const url = src ? pictureUrl(src, 'articleCard') : src;
  return <img className="dash-card__img" src={url || placeholder} data-fallback={placeholder} alt="" loading="lazy" />;
}

export function ListingCard({ listing, children }: { listing: { name: string; share_url: string; image_url: string | null; address: string; type: { name: string; slug?: string }; default_neighborhood: { name: string } | null; rating: number | null; rating_count: number; closed_on?: string | null }; children?: ReactNode }) {
  const closing = closingBadge(listing.closed_on, new Date());
  return (
    <li className="dash-card">
      <CardImage src={listing.image_url} placeholder={placeholderImageUrl('place', listing.type.slug)} />
      <div className="dash-card__body">
        <p className="dash-card__kicker">
          {listing.type.name}
          {listing.default_neighborhood ? ` · ${listing.default_neighborhood.name}` : ''}
        </p>
        <h3 className="dash-card__title">
          <a href={listing.share_url}>{listing.name}</a>
        </h3>
        {closing && (
          <p className="dash-card__meta">
            <span className="closed-badge" data-closed>{closing}</span>
          </p>
        )}
        {listing.address && <p className="dash-card__meta">{listing.address}</p>}
        <p className="dash-card__meta">
          Rating: {formatRating(listing.rating)} · {formatRatingCount(listing.rating_count)}
        </p>
        {children}
      </div>
    </li>
  );
}
