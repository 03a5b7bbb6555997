import moment from 'moment-timezone';
import type { RawForm } from './form';
import type { EditableEvent } from './staff-event-queries';

// An event as the add-event form's fields (the names the member form posts), so staff edit it
// with the same form: what parseEventForm reads back into the same event.

const time = (t: string | null) => (t ? moment.utc(t, ['HH:mm:ss', 'HH:mm'], true).format('h:mm A') : '');

export function eventFormValues(e: EditableEvent, timeZone: string): RawForm {
  const v: RawForm = {
    title: e.title,
    description: e.description,
    venue_name: e.venue_name,
    address: e.address,
    website: e.website,
    schedule_type: e.schedule_type,
  };
  if (e.listing_id) Object.assign(v, { listing: String(e.listing_id), venue_display_name: e.venue_name });
  if (e.is_multiple_venues) v.is_multiple_venues = 'on';
  if (e.is_virtual_event) v.is_virtual_event = 'on';
  const p = e.schedule_type;
  if (e.all_day) v[`${p}-all_day`] = 'on';
  if (p === 'irregular') {
    v['irregular-TOTAL_FORMS'] = String(e.dates.length);
    e.dates.forEach((d, i) => {
      v[`irregular-${i}-start_date`] = d.local_date;
      if (!e.all_day) {
        v[`irregular-${i}-start_time`] = moment.tz(d.starts_at, timeZone).format('h:mm A');
        v[`irregular-${i}-end_time`] = d.ends_at ? moment.tz(d.ends_at, timeZone).format('h:mm A') : '';
      }
    });
    return v;
  }
  if (p === 'single_day') v['single_day-date'] = e.start_date;
  else {
    v[`${p}-start_date`] = e.start_date;
    v[`${p}-end_date`] = e.end_date ?? '';
  }
  if (p === 'weekly') v['weekly-weekdays'] = (e.weekdays ?? []).map(String);
  v[`${p}-start_time`] = time(e.start_time);
  v[`${p}-end_time`] = time(e.end_time);
  return v;
}
