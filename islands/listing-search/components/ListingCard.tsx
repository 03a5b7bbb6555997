import { memo } from 'react';
import type { ListingDTO } from '../../../shared/dto';
import { formatDistanceKm } from '../../../shared/format/distance';
import { pictureUrl } from '../../common/picture-url';
import { placeholderImageUrl } from '../../../shared/format/placeholder-image';
import { formatRating, formatRatingCount } from '../../../shared/format/rating';
import { escapeHtml, sitePath } from '../../common/maps/geo';
import { closingBadge } from '../../../shared/place-closing';

// One result, the same markup as templates/places/partials/listing-card.njk, with the saves
// island's placeholder (templates/partials/save-controls.njk). The placeholder's inside is
// set once as HTML and never reconciled by React: the saves island mounts its own root there
// (it finds new placeholders on 'saves:rescan').

export interface CardContext {
  siteUrl: string;
  cityName: string;
  /** Where a guest's login link comes back to. */
  next: string;
}

function SavePlaceholder({ l, ctx }: { l: ListingDTO; ctx: CardContext }) {
  const html = `<a class="save-control__login" href="/accounts/login?next=${encodeURIComponent(ctx.next)}" rel="nofollow">Log in to save or rate <span class="visually-hidden">${escapeHtml(l.name)}</span></a>`;
  return (
    <div
      data-island="saves"
      className="save-control save-control--listing-compact"
      data-save="listing-compact"
      data-object-id={l.id}
      data-name={l.name}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

export const ListingCard = memo(function ListingCard({ l, ctx }: { l: ListingDTO; ctx: CardContext }) {
  const href = sitePath(l.share_url, ctx.siteUrl);
  // Closed places are in the results only when the search asks for them (closed=include).
  const closing = closingBadge(l.closed_on, new Date());
  return (
    <li className="place-card">
      <a className="place-card__link" href={href}>
        <img
          className="place-card__image"
          src={l.image_url ? pictureUrl(l.image_url, 'listingCard') : placeholderImageUrl('place', l.type.slug)}
          data-fallback={placeholderImageUrl('place', l.type.slug)}
          width={210}
          height={140}
          alt=""
          loading="lazy"
          decoding="async"
        />
        <span className="place-card__body">
          <h3 className="place-card__name">{l.name}</h3>
          <span className="place-card__kicker">
            {l.sub_type ? l.sub_type.name : l.type.name}
            {l.default_neighborhood ? ` · ${l.default_neighborhood.name}` : ''}
          </span>
        </span>
      </a>
      <span className="place-card__meta">
        {closing && <span className="closed-badge" data-closed>{closing}</span>}{closing ? ' ' : ''}
        {l.appears_in_best_of_lists && <span className="best-of-sticker">Best of {ctx.cityName}</span>}{' '}
        <span className="place-card__rating">
          Rating <strong>{formatRating(l.rating)}</strong> · <span className="place-card__rating-count">{formatRatingCount(l.rating_count)}</span>
        </span>
        {typeof l.distance === 'number' && <> · <span>{formatDistanceKm(l.distance)}</span></>}
      </span>
      {l.address && <span className="place-card__address">{l.address}</span>}
      <SavePlaceholder l={l} ctx={ctx} />
    </li>
  );
});
