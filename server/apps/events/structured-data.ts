import type { EventDTO } from '../../../shared/dto';
import type { EventDetailRow } from './queries';

// schema.org Event for an event page: its next date, where it is (a Place, or a
// VirtualLocation for online events) and its price when known.

export function eventStructuredData(e: EventDetailRow, dto: EventDTO, siteUrl: string): Record<string, unknown> {
  const data: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: e.title,
    url: dto.share_url,
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: e.is_virtual_event ? 'https://schema.org/OnlineEventAttendanceMode' : 'https://schema.org/OfflineEventAttendanceMode',
  };
  if (dto.start_date_time) data.startDate = dto.start_date_time;
  if (dto.end_date_time) data.endDate = dto.end_date_time;
  if (e.description) data.description = e.description.slice(0, 500);
  if (dto.image_url) data.image = dto.image_url;
  if (e.is_virtual_event) {
    data.location = { '@type': 'VirtualLocation', url: dto.website || dto.share_url };
  } else {
    const place: Record<string, unknown> = { '@type': 'Place', name: e.venue_name || e.address, address: e.address };
    if (e.latitude !== null && e.longitude !== null) place.geo = { '@type': 'GeoCoordinates', latitude: e.latitude, longitude: e.longitude };
    data.location = place;
  }
  if (e.organizer_name) data.organizer = { '@type': 'Organization', name: e.organizer_name };
  if (e.is_free) data.isAccessibleForFree = true;
  if (e.is_free || e.price_cad !== null) {
    data.offers = { '@type': 'Offer', price: e.is_free ? '0' : Number(e.price_cad).toFixed(2), priceCurrency: 'CAD', url: dto.website || `${siteUrl}${new URL(dto.share_url).pathname}` };
  }
  return data;
}
