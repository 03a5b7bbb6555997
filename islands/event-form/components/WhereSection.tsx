import { useDispatch, useSelector } from 'react-redux';
import { eventForm } from '../slice';
import type { EventFormRootState } from '../store';
import { Errors, invalidProps } from './FieldErrors';
import { VenueField } from './VenueField';

// Where: multiple venues or virtual (each disables the other and the place fields), the venue
// with its place search, the address, and the event's website.
export function WhereSection({ uid, values }: { uid: string; values: Record<string, string> }) {
  const dispatch = useDispatch();
  const s = useSelector((r: EventFormRootState) => r.eventForm);
  const e = s.errors;
  const placeless = s.multipleVenues || s.virtual;
  return (
    <fieldset>
      <legend>Where</legend>
      <p className="event-form__checks">
        <label className="checkbox">
          <input type="checkbox" name="is_multiple_venues" checked={s.multipleVenues} disabled={s.virtual} onChange={(ev) => dispatch(eventForm.multipleVenuesToggled(ev.target.checked))} /> Multiple venues
        </label>
        <label className="checkbox">
          <input type="checkbox" name="is_virtual_event" checked={s.virtual} disabled={s.multipleVenues} onChange={(ev) => dispatch(eventForm.virtualToggled(ev.target.checked))} /> Virtual event
        </label>
      </p>
      <input type="hidden" name="listing" value={s.venue.listingId} disabled={placeless} />
      <VenueField uid={uid} />
      <div className="field">
        <label htmlFor={`${uid}-address`}>Address</label>
        <input id={`${uid}-address`} name="address" maxLength={255} value={s.venue.address} disabled={placeless} onChange={(ev) => dispatch(eventForm.addressChanged(ev.target.value))} {...invalidProps(e, 'address')} />
        <span className="field__hint">Not needed for multiple venues or a virtual event.</span>
        <Errors keys={['address']} errors={e} />
      </div>
      <div className="field">
        <label htmlFor={`${uid}-website`}>Website</label>
        <input id={`${uid}-website`} name="website" type="url" maxLength={500} defaultValue={values.website ?? ''} {...invalidProps(e, 'website')} />
        <Errors keys={['website']} errors={e} />
      </div>
    </fieldset>
  );
}
