import type { HubEvent } from '../../../shared/events-hub';
import { titleLengthClass } from '../../../shared/format/text';
import { pictureUrl } from '../../common/picture-url';
import { eventWhen, pathOf } from '../format';

/** The same card as templates/events/partials/event-card.njk. */
export function EventCard({ event, timeZone, eager = false }: { event: HubEvent; timeZone: string; eager?: boolean }) {
  return (
    <li className="event-card">
      <a className="event-card__link" href={pathOf(event.share_url)}>
        {event.image_url ? (
          <img className="event-card__image" src={pictureUrl(event.image_url, 'eventCard')} width={600} height={400} alt="" loading={eager ? 'eager' : 'lazy'} decoding="async" />
        ) : (
          <span className="event-card__placeholder" aria-hidden="true" />
        )}
        <span className="event-card__body">
          <time className="event-card__when" dateTime={event.start_date_time}>
            {eventWhen(event.start_date_time, event.all_day, timeZone)}
          </time>
          <h3 className={`event-card__title ${titleLengthClass(event.title)}`}>{event.title}</h3>
        </span>
      </a>
      {event.venue_name && <span className="event-card__venue">{event.venue_name}</span>}
      {event.schedule && <span className="event-card__schedule">{event.schedule}</span>}
    </li>
  );
}
