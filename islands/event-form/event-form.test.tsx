/// <reference types="jest" />
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ApiError } from '../common/api';
import { renderWithStore } from '../common/test-utils';
import { EventForm, formEntries, isValidTime } from './components/EventForm';
import { imageFileError } from './sagas';
import { eventForm, eventFormFromInitialState, eventFormSlice, imageFieldsFrom } from './slice';
import { createEventFormStore } from './store';
import type { EventFormInitialState } from './types';
import { TIMINGS_MS } from '../../shared/constants';

const settle = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
};
const wait = (ms: number) => act(() => new Promise((r) => setTimeout(r, ms)));

const INIT: EventFormInitialState = { csrfToken: 'tok', city: 'Toronto', values: {}, weekdays: [], errors: null, irregularRows: 3, defaults: { startTime: '7:00 PM', endTime: '9:00 PM' } };
const UPLOADED = { thumbnail_dimensions: { width: 300, height: 300 }, uploaded_image_url: 'http://x/media/u/a.jpg', thumbnail_url: 'http://x/media/u/a_t.jpg' };

function setup(init: Partial<EventFormInitialState> = {}, api: Partial<Record<'searchListings' | 'searchAddresses' | 'uploadImage' | 'submit', jest.Mock>> = {}) {
  const ctx = {
    api: {
      searchListings: api.searchListings ?? jest.fn().mockResolvedValue([{ kind: 'place', id: 5, name: 'Massey Hall', address: '178 Victoria St' }]),
      searchAddresses: api.searchAddresses ?? jest.fn().mockResolvedValue([]),
      uploadImage: api.uploadImage ?? jest.fn().mockResolvedValue(UPLOADED),
      submit: api.submit ?? jest.fn().mockResolvedValue({ success_url: '/events/add/success/' }),
    },
    navigate: jest.fn(),
    debounceMs: 20,
  };
  const full = { ...INIT, ...init };
  const store = createEventFormStore(eventFormFromInitialState(full), ctx);
  const view = renderWithStore(<EventForm init={full} />, store);
  return { ...view, store, ctx };
}

const entriesOf = (container: HTMLElement) => formEntries(container.querySelector('form')!);
const value = (entries: Array<[string, string]>, name: string) => entries.filter(([k]) => k === name).map(([, v]) => v);

describe('event form island', () => {
  test('slice: placeless checkboxes store, clear and restore the venue, and disable each other', () => {
    let s = eventFormFromInitialState({ ...INIT, values: { venue_name: 'Hall', address: '1 King St', listing: '' } });
    s = eventFormSlice.reducer(s, eventForm.multipleVenuesToggled(true));
    expect(s.venue).toEqual({ name: '', address: '', listingId: '' });
    s = eventFormSlice.reducer(s, eventForm.virtualToggled(true));
    expect(s.virtual).toBe(false);
    s = eventFormSlice.reducer(s, eventForm.multipleVenuesToggled(false));
    expect(s.venue).toEqual({ name: 'Hall', address: '1 King St', listingId: '' });
    expect(imageFieldsFrom(UPLOADED)).toMatchObject({ hub_page_image_top: '50', hub_page_image_left: '0', thumbnail_width: '300', thumbnail_height: '300' });
    expect(isValidTime('7:30 PM')).toBe(true);
    expect(isValidTime('19:30')).toBe(true);
    expect(isValidTime('25:00')).toBe(false);
    expect(imageFileError({ name: 'a.pdf', type: 'application/pdf' })).toBe('Unsupported file type ".pdf"');
    expect(imageFileError({ name: 'a.png', type: 'image/png' })).toBeNull();
  });

  test('tabs, weekly days and irregular rows give the server its field names', () => {
    const { container } = setup();
    expect(screen.getByText('Only Toronto-based events will be approved for posting.')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Weekly' }));
    expect(screen.getByRole('tab', { name: 'Weekly' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('Event Duration')).toBeTruthy();
    const days = within(screen.getByRole('group', { name: 'Recurring Weekly on' }));
    fireEvent.click(days.getByLabelText('Mon'));
    fireEvent.click(days.getByLabelText('Sun'));
    let entries = entriesOf(container);
    expect(value(entries, 'schedule_type')).toEqual(['weekly']);
    expect(value(entries, 'weekly-weekdays').sort()).toEqual(['0', '1']);
    fireEvent.click(screen.getByRole('tab', { name: 'Various dates' }));
    expect(value(entriesOf(container), 'irregular-TOTAL_FORMS')).toEqual(['1']);
    fireEvent.click(screen.getByRole('button', { name: '+ Add another date' }));
    entries = entriesOf(container);
    expect(value(entries, 'irregular-TOTAL_FORMS')).toEqual(['2']);
    expect(value(entries, 'irregular-1-start_time')).toEqual(['7:00 PM']);
    expect(value(entries, 'irregular-MAX_NUM_FORMS')).toEqual(['100']);
    const start = screen.getAllByLabelText('Start time')[0] as HTMLInputElement;
    fireEvent.change(start, { target: { value: 'soon' } });
    fireEvent.blur(start);
    expect(start.value).toBe('7:00 PM');
  });

  test('venue type-ahead: nothing at 2 characters, a debounced search above, a choice renames the field', async () => {
    const { ctx, container } = setup();
    const venue = screen.getByRole('combobox', { name: 'Venue' }) as HTMLInputElement;
    fireEvent.change(venue, { target: { value: 'Ma' } });
    await wait(40);
    expect(ctx.api.searchListings).not.toHaveBeenCalled();
    fireEvent.change(venue, { target: { value: 'Mas' } });
    fireEvent.change(venue, { target: { value: 'Mass' } });
    await wait(40);
    expect(ctx.api.searchListings.mock.calls).toEqual([['Mass']]);
    fireEvent.mouseDown(screen.getByRole('option', { name: /Massey Hall/ }));
    expect(venue.name).toBe('venue_display_name');
    expect((screen.getByLabelText('Address') as HTMLInputElement).value).toBe('178 Victoria St');
    expect(value(entriesOf(container), 'listing')).toEqual(['5']);
    // Clearing it makes it a plain venue name, with no listing
    fireEvent.change(venue, { target: { value: '' } });
    expect(venue.name).toBe('venue_name');
    expect(value(entriesOf(container), 'listing')).toEqual(['']);
    // Choose again: leaving the field with the place's name keeps the place
    fireEvent.change(venue, { target: { value: 'Massey' } });
    fireEvent.mouseDown(await screen.findByRole('option', { name: /Massey Hall/ }));
    fireEvent.blur(venue);
    expect([venue.value, venue.name]).toEqual(['Massey Hall', 'venue_display_name']);
    expect(value(entriesOf(container), 'listing')).toEqual(['5']);
    // Typing over a chosen place keeps it while typing; leaving the field keeps the member's
    // text and makes it a plain venue name with no listing (spec 1 §4 "blur ... resets to venue_name")
    fireEvent.change(venue, { target: { value: 'Massey Hall rooftop' } });
    expect(venue.name).toBe('venue_display_name');
    fireEvent.blur(venue);
    expect([venue.value, venue.name]).toEqual(['Massey Hall rooftop', 'venue_name']);
    expect(value(entriesOf(container), 'listing')).toEqual(['']);
    expect(value(entriesOf(container), 'venue_name')).toEqual(['Massey Hall rooftop']);
    expect((screen.getByLabelText('Address') as HTMLInputElement).value).toBe('178 Victoria St');
  });

  test("venue type-ahead: a search that finds no place says 'No results found' (spec 2 §5), recorded as a search done with none", async () => {
    const searchListings = jest.fn().mockResolvedValueOnce([]).mockRejectedValueOnce(new Error('offline'));
    const { store, container } = setup({}, { searchListings });
    const venue = screen.getByRole('combobox', { name: 'Venue' }) as HTMLInputElement;
    const status = () => container.querySelector('.event-form__venue [role=status]')!.textContent;
    expect(status()).toBe('');
    fireEvent.change(venue, { target: { value: 'Zzyzx' } });
    await screen.findByText('No results found');
    expect(store.getState().eventForm).toMatchObject({ suggestions: [], venueSearch: 'done' });
    expect(venue.getAttribute('aria-expanded')).toBe('false');
    // Fewer than three letters: nothing searched, nothing said
    fireEvent.change(venue, { target: { value: 'Zz' } });
    expect(status()).toBe('');
    expect(store.getState().eventForm.venueSearch).toBe('idle');
    // A failed search says so rather than 'No results found'
    fireEvent.change(venue, { target: { value: 'Zzyzx' } });
    await screen.findByText('Suggestions could not be loaded.');
    // Leaving the field closes the message with the list
    fireEvent.blur(venue);
    await waitFor(() => expect(status()).toBe(''));
    expect(store.getState().eventForm.venueSearch).toBe('idle');
  });

  test('venue type-ahead: a house number offers street addresses first, marked; choosing one fills the address and keeps the venue name', async () => {
    const searchAddresses = jest.fn().mockResolvedValue([{ kind: 'address', id: 0, name: '401 Bay St', address: '401 Bay St' }]);
    const searchListings = jest.fn().mockResolvedValue([{ kind: 'place', id: 9, name: '401 Richmond', address: '401 Richmond St W' }]);
    const { ctx, container } = setup({}, { searchAddresses, searchListings });
    const venue = screen.getByRole('combobox', { name: 'Venue' }) as HTMLInputElement;
    // A name is not an address: only places are asked for.
    fireEvent.change(venue, { target: { value: 'Massey' } });
    await screen.findByRole('option', { name: /401 Richmond/ });
    expect(ctx.api.searchAddresses).not.toHaveBeenCalled();
    fireEvent.change(venue, { target: { value: '401 Bay' } });
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(2));
    expect(ctx.api.searchAddresses.mock.calls).toEqual([['401 Bay']]);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Address 401 Bay St', 'Place 401 Richmond 401 Richmond St W']);
    fireEvent.mouseDown(screen.getByRole('option', { name: /Address 401 Bay St/ }));
    expect((screen.getByLabelText('Address') as HTMLInputElement).value).toBe('401 Bay St');
    expect([venue.value, venue.name]).toEqual(['401 Bay', 'venue_name']);
    expect(value(entriesOf(container), 'listing')).toEqual(['']);
    // A failing geocoder leaves the places.
    searchAddresses.mockRejectedValueOnce(new Error('offline'));
    fireEvent.change(venue, { target: { value: '12 Elm' } });
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Place 401 Richmond 401 Richmond St W']));
  });

  test('irregular dates: rows are added and removed (one always stays), names stay 0…n-1 and dates come only from the calendar', () => {
    const { container } = setup({ values: { schedule_type: 'irregular' } });
    const add = screen.getByRole('button', { name: '+ Add another date' });
    expect(screen.queryByRole('button', { name: /Remove date/ })).toBeNull();
    fireEvent.click(add);
    fireEvent.click(add);
    const dates = () => Array.from(container.querySelectorAll<HTMLInputElement>('input[name^="irregular-"][name$="-start_date"]'));
    expect(dates().map((d) => d.name)).toEqual(['irregular-0-start_date', 'irregular-1-start_date', 'irregular-2-start_date']);
    expect(dates().every((d) => d.readOnly)).toBe(true);
    // Pick a date for the third row from its calendar: the day is marked and the field filled at
    // once; the calendar closes 250 ms later (spec 2 §9's date-picker blur).
    jest.useFakeTimers();
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Choose date 3' }));
      const dialog = screen.getByRole('dialog', { name: 'Choose date 3' });
      const day = within(dialog).getAllByRole('button', { name: /, \d{4}$/ })[14];
      fireEvent.click(day);
      expect(day.getAttribute('aria-pressed')).toBe('true');
      expect(dates()[2].value).toMatch(/^\d{4}-\d{2}-15$/);
      act(() => jest.advanceTimersByTime(TIMINGS_MS.datePickerBlur - 1));
      expect(screen.queryByRole('dialog')).not.toBeNull();
      act(() => jest.advanceTimersByTime(1));
      expect(screen.queryByRole('dialog')).toBeNull();
    } finally {
      jest.useRealTimers();
    }
    const picked = dates()[2].value;
    expect(picked).toMatch(/^\d{4}-\d{2}-15$/);
    // Removing the second row keeps the third's date, now as row 2
    fireEvent.click(screen.getByRole('button', { name: 'Remove date 2' }));
    expect(dates().map((d) => [d.name, d.value])).toEqual([['irregular-0-start_date', ''], ['irregular-1-start_date', picked]]);
    expect(value(entriesOf(container), 'irregular-TOTAL_FORMS')).toEqual(['2']);
    fireEvent.click(screen.getByRole('button', { name: 'Remove date 1' }));
    expect(screen.queryByRole('button', { name: /Remove date/ })).toBeNull();
    expect(value(entriesOf(container), 'irregular-TOTAL_FORMS')).toEqual(['1']);
  });

  test('virtual event disables venue, address and listing and multiple venues; unchecking restores them', () => {
    const { container } = setup({ values: { venue_name: 'The Rex', address: '194 Queen St W' } });
    fireEvent.click(screen.getByLabelText('Virtual event'));
    expect((screen.getByRole('combobox', { name: 'Venue' }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText('Address') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText('Multiple venues') as HTMLInputElement).disabled).toBe(true);
    const entries = entriesOf(container);
    expect(value(entries, 'venue_name')).toEqual([]);
    expect(value(entries, 'is_virtual_event')).toEqual(['on']);
    fireEvent.click(screen.getByLabelText('Virtual event'));
    expect((screen.getByLabelText('Address') as HTMLInputElement).value).toBe('194 Queen St W');
  });

  test('without an image the confirmation comes first; continuing posts, errors show beside fields', async () => {
    const submit = jest.fn().mockRejectedValueOnce(new ApiError(400, { title: ['This field is required.'], weekDays: ['Choose at least one day of the week.'] })).mockResolvedValue({ success_url: '/events/add/success/' });
    const { ctx } = setup({ values: { schedule_type: 'weekly' } }, { submit });
    fireEvent.click(screen.getByRole('button', { name: 'Submit event' }));
    const dialog = screen.getByRole('dialog', { name: 'Add an image to get noticed' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'I want to add an image' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(submit).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Submit event' }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue with no image' }));
    await act(settle);
    expect(submit).toHaveBeenCalledTimes(1);
    expect(screen.getByText('* This field is required.')).toBeTruthy();
    expect(screen.getByText('* Choose at least one day of the week.')).toBeTruthy();
    expect(screen.getByLabelText(/Event title/).getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Submit event' }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue with no image' }));
    await act(settle);
    expect(ctx.navigate).toHaveBeenCalledWith('/events/add/success/');
  });

  test('an uploaded image fills the hidden fields and submits without the confirmation; a bad type is refused', async () => {
    const { ctx, container } = setup();
    const file = screen.getByLabelText('Image') as HTMLInputElement;
    fireEvent.change(file, { target: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' })] } });
    await act(settle);
    expect(screen.getByText('* Unsupported file type ".txt"')).toBeTruthy();
    expect(ctx.api.uploadImage).not.toHaveBeenCalled();
    fireEvent.change(file, { target: { files: [new File(['x'], 'poster.png', { type: 'image/png' })] } });
    await act(settle);
    expect(ctx.api.uploadImage).toHaveBeenCalledTimes(1);
    const entries = entriesOf(container);
    expect(value(entries, 'uploaded_image_url')).toEqual([UPLOADED.uploaded_image_url]);
    expect(value(entries, 'thumbnail_image_url')).toEqual([UPLOADED.thumbnail_url]);
    expect(value(entries, 'box_width')).toEqual(['300']);
    expect(value(entries, 'csrfmiddlewaretoken')).toEqual(['tok']);
    fireEvent.click(screen.getByRole('button', { name: 'Submit event' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await act(settle);
    expect(ctx.api.submit).toHaveBeenCalledTimes(1);
    expect(ctx.navigate).toHaveBeenCalledWith('/events/add/success/');
  });

  test("an image the server has no room for (507) shows the server's message, not the connection one", async () => {
    const detail = 'Our server is out of storage space right now, so your file was not saved. Please try again later.';
    setup({}, { uploadImage: jest.fn().mockRejectedValue(new ApiError(507, { detail })) });
    fireEvent.change(screen.getByLabelText('Image'), { target: { files: [new File(['x'], 'poster.png', { type: 'image/png' })] } });
    await act(settle);
    expect(screen.getByText(`* ${detail}`)).toBeTruthy();
  });
});
