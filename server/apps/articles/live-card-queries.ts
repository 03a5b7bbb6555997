import moment from 'moment-timezone';
import type { Db } from '../../db';
import { escapeHtml } from '../../../shared/format/text';
import { longDate } from '../../../shared/format/date';
import { formatRating } from '../../../shared/format/rating';
import { imageUrl } from '../../../shared/format/image-url';
import { urls } from '../../../shared/urls';
import type { LiveCardKind } from '../../../shared/newsroom';
import { listingPath } from '../listings/serialize';
import { listingsQuery } from '../listings/queries';
import { eventPath } from '../events/serialize';
import { eventsQuery } from '../events/queries';
import { LIVE_CARD_MARKER, liveCardsIn } from './story-render';
import { isClosedOn } from '../../../shared/place-closing';

// Live cards (issue 37): a place, an event or a Best of list named in a story is stored as a
// reference and drawn here, when the page is made, from the current record: a place that
// closes says "Closed" in every story naming it; one that is gone, or an event no longer
// public, leaves nothing behind. All of a body's cards cost three queries at most, one a kind.

export interface LiveCardRecord {
  kind: LiveCardKind;
  id: number;
  title: string;
  url: string;
  /** Type and neighbourhood, dates and venue, the list's intro: one line. */
  detail: string;
  image: string | null;
  closed: boolean;
  rating: string | null;
}

const key = (kind: LiveCardKind, id: number) => `${kind}:${id}`;

/** The current records behind cards, by 'kind:id'; a missing or non-public one is absent. */
export async function loadLiveCards(db: Db, now: Date, timeZone: string, cards: Array<{ kind: LiveCardKind; id: number }>): Promise<Map<string, LiveCardRecord>> {
  const ids = (kind: LiveCardKind) => [...new Set(cards.filter((c) => c.kind === kind).map((c) => c.id))];
  const [places, events, lists] = [ids('place'), ids('event'), ids('bestOf')];
  const today = moment(now).tz(timeZone).format('YYYY-MM-DD');
  const out = new Map<string, LiveCardRecord>();
  await Promise.all([
    places.length
      ? listingsQuery(db).whereIn('l.id', places).select('l.closed_on').then((rows: Array<Record<string, unknown>>) => {
          for (const r of rows) {
            out.set(key('place', Number(r.id)), {
              kind: 'place',
              id: Number(r.id),
              title: String(r.name),
              url: listingPath(r as never),
              detail: [r.sub_type_name ?? r.type_name, r.neighbourhood_name, r.address].filter(Boolean).join(' · '),
              image: r.image_key ? imageUrl(String(r.image_key), 'listingCard') : null,
              closed: isClosedOn(r.closed_on as string | Date | null, today),
              rating: r.rating_count ? formatRating(r.rating as number) : null,
            });
          }
        })
      : null,
    events.length
      ? eventsQuery(db, now).whereIn('e.id', events).then((rows) => {
          for (const r of rows) {
            const when = r.start_date_time ? longDate(new Date(r.start_date_time).toISOString(), timeZone) : '';
            out.set(key('event', r.id), {
              kind: 'event',
              id: r.id,
              title: r.title,
              url: eventPath(r),
              detail: [when, r.venue_name].filter(Boolean).join(' · '),
              image: r.image_key ? imageUrl(r.image_key, 'listingCard') : null,
              closed: false,
              rating: null,
            });
          }
        })
      : null,
    lists.length
      ? db('best_of_lists').whereIn('id', lists).select('id', 'title', 'slug', 'intro', 'image_key').then((rows) => {
          for (const r of rows) {
            out.set(key('bestOf', r.id), {
              kind: 'bestOf',
              id: r.id,
              title: r.title,
              url: urls.bestOfList(r.slug),
              detail: String(r.intro ?? '').split(/\n/)[0].slice(0, 200),
              image: r.image_key ? imageUrl(r.image_key, 'listingCard') : null,
              closed: false,
              rating: null,
            });
          }
        })
      : null,
  ]);
  return out;
}

const KIND_LABEL: Record<LiveCardKind, string> = { place: 'Place', event: 'Event', bestOf: 'Best of' };

export function liveCardHtml(c: LiveCardRecord): string {
  const img = c.image ? `<img class="live-card__image" src="${escapeHtml(c.image)}" alt="" width="210" height="140" loading="lazy" decoding="async">` : '';
  const closed = c.closed ? '<span class="live-card__closed">Closed</span>' : '';
  const rating = c.rating ? `<span class="live-card__rating">${escapeHtml(c.rating)}</span>` : '';
  return `<aside class="live-card live-card--${c.kind}${c.closed ? ' live-card--closed' : ''}">${img}<div class="live-card__text"><p class="live-card__kind">${KIND_LABEL[c.kind]}${closed}</p><p class="live-card__title"><a href="${escapeHtml(c.url)}">${escapeHtml(c.title)}</a></p>${c.detail ? `<p class="live-card__detail">${escapeHtml(c.detail)}</p>` : ''}${rating}</div></aside>`;
}

/** A rendered body with its card markers replaced by the cards as they are now. */
export async function withLiveCards(db: Db, now: Date, timeZone: string, html: string): Promise<string> {
  const cards = liveCardsIn(html);
  if (!cards.length) return html;
  const records = await loadLiveCards(db, now, timeZone, cards);
  return html.replace(LIVE_CARD_MARKER, (_m, kind: LiveCardKind, id: string) => {
    const r = records.get(key(kind, Number(id)));
    return r ? liveCardHtml(r) : '';
  });
}
