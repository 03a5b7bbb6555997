/// <reference types="jest" />
import '../../common/test-polyfills';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { renderWithStore } from '../../common/test-utils';
import { ApiError } from '../../common/api';
import { PROFILE_CHANGED_EVENT } from '../../common/profile-events';
import { LIMITS, TIMINGS_MS } from '../../../shared/constants';
import { checkProfilePhoto, PHOTO_DIALOG_TITLE, photoDialogText } from '../avatar';
import { createDashboardStore, type DashboardRootState } from '../store';
import { initialProfileState, profileActions } from '../slices/profile';
import { counts, fakeApi, profile } from '../testing';
import { Home } from './Home';
import { MemoryRouter } from 'react-router-dom';

// The profile photo's rules (spec 1 §4 Profile edit, §5): a JPG of at most 6291456 bytes goes
// to the cropper, anything else opens the size dialog; one section open at a time; the save
// sends `avatar`, and the navbar hears of the new face.

const flush = () => act(() => new Promise((r) => setTimeout(r, 0)));

function fileOf(name: string, type: string, size: number): File {
  const f = new File(['x'], name, { type });
  Object.defineProperty(f, 'size', { value: size });
  return f;
}

function renderHome(api = fakeApi()) {
  const store = createDashboardStore({ profile: { ...initialProfileState, data: profile() }, counts: counts() }, { api, forgetCache: jest.fn() });
  renderWithStore(
    <MemoryRouter>
      <Home random={() => 0} />
    </MemoryRouter>,
    store,
  );
  return { api, store, state: () => store.getState() as DashboardRootState };
}

describe('the profile photo', () => {
  test('a JPG of up to 6291456 bytes is accepted; one byte more, or another type, is not', () => {
    expect(checkProfilePhoto(fileOf('me.jpg', 'image/jpeg', LIMITS.profilePhotoBytes))).toBe('ok');
    expect(checkProfilePhoto(fileOf('me.jpg', 'image/jpeg', LIMITS.profilePhotoBytes + 1))).toBe('too-large');
    expect(checkProfilePhoto(fileOf('me.png', 'image/png', 1000))).toBe('not-jpeg');
    expect(checkProfilePhoto(fileOf('ME.JPEG', '', 1000))).toBe('ok');
    expect(checkProfilePhoto(fileOf('me.gif', '', 1000))).toBe('not-jpeg');
    expect(photoDialogText()).toBe('We can only accept JPG photos that are 6mb or less. Please try again with a different image.');
  });

  test('a file over 6 MB or not a JPG opens the size dialog, and the section stays open', async () => {
    renderHome();
    fireEvent.click(screen.getByRole('button', { name: 'Add a photo' }));
    const input = screen.getByLabelText(/Choose a photo/) as HTMLInputElement;
    expect(input.accept).toBe('image/jpeg');
    fireEvent.change(input, { target: { files: [fileOf('big.jpg', 'image/jpeg', LIMITS.profilePhotoBytes + 1)] } });
    const dialog = screen.getByRole('dialog', { name: PHOTO_DIALOG_TITLE });
    expect(within(dialog).getByText(photoDialogText())).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.change(screen.getByLabelText(/Choose a photo/), { target: { files: [fileOf('me.png', 'image/png', 10)] } });
    expect(screen.getByRole('dialog', { name: PHOTO_DIALOG_TITLE })).toBeTruthy();
    // Nothing to save until a photo is cropped.
    expect((screen.getByRole('button', { name: 'Save photo' }) as HTMLButtonElement).disabled).toBe(true);
  });

  test('opening the photo section closes the name section, and the other way round', () => {
    renderHome();
    fireEvent.click(screen.getByRole('button', { name: 'Edit name' }));
    expect(screen.getByLabelText('Your name')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add a photo' }));
    expect(screen.queryByLabelText('Your name')).toBeNull();
    expect(screen.getByLabelText(/Choose a photo/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.queryByLabelText(/Choose a photo/)).toBeNull();
  });

  test("with the name form open, the section opened next is still open after the name form's 250 ms blur", () => {
    jest.useFakeTimers();
    try {
      const { state } = renderHome();
      for (const [button, opened] of [['Add a photo', /Choose a photo/], ['Change password', 'Current password']] as const) {
        fireEvent.click(screen.getByRole('button', { name: 'Edit name' }));
        act(() => screen.getByLabelText('Your name').focus());
        // As in a browser: the press moves focus to the button (the form blurs), then clicks.
        const other = screen.getByRole('button', { name: button });
        act(() => other.focus());
        fireEvent.click(other);
        act(() => void jest.advanceTimersByTime(TIMINGS_MS.nameBlur * 2));
        expect(screen.getByLabelText(opened)).toBeTruthy();
        expect(screen.queryByLabelText('Your name')).toBeNull();
        expect(state().profile.openSection).not.toBe('none');
      }
    } finally {
      jest.useRealTimers();
    }
  });

  test('saving sends avatar, shows the new 80x80 face, closes the section and tells the navbar', async () => {
    const url = '/media/avatars/2026/11/abc.jpg?w=80&h=80&cmd=crop';
    const api = fakeApi({ patchProfile: jest.fn(async () => profile({ avatar: 'avatars/2026/11/abc.jpg', avatar_url: url })) });
    const heard = jest.fn();
    window.addEventListener(PROFILE_CHANGED_EVENT, (e) => heard((e as CustomEvent).detail));
    const { state, store } = renderHome(api);
    fireEvent.click(screen.getByRole('button', { name: 'Add a photo' }));
    act(() => {
      store.dispatch(profileActions.photoSaveRequested('data:image/jpeg;base64,/9j/AA=='));
    });
    expect(state().profile.photoStatus).toBe('saving');
    await flush();
    expect(api.patchProfile).toHaveBeenCalledWith({ avatar: 'data:image/jpeg;base64,/9j/AA==' });
    expect(state().profile).toMatchObject({ photoStatus: 'succeeded', openSection: 'none' });
    expect(heard).toHaveBeenCalledWith({ avatar_url: url, full_name: 'Anne Shirley' });
    const img = document.querySelector('.dash-greeting__photo img') as HTMLImageElement;
    expect(img.getAttribute('src')).toBe(url);
    expect([img.width, img.height]).toEqual([80, 80]);
    expect(screen.getByRole('button', { name: 'Change photo' })).toBeTruthy();
  });

  test("a refused save shows the server's message on the section and keeps it open", async () => {
    const api = fakeApi({ patchProfile: jest.fn(async () => Promise.reject(new ApiError(400, { avatar: ['Upload a valid image.'] }))) });
    const { state, store } = renderHome(api);
    fireEvent.click(screen.getByRole('button', { name: 'Add a photo' }));
    act(() => {
      store.dispatch(profileActions.photoSaveRequested('data:image/jpeg;base64,xx'));
    });
    await flush();
    expect(state().profile).toMatchObject({ photoStatus: 'failed', photoError: 'Upload a valid image.', openSection: 'photo' });
    expect(screen.getByText(/Upload a valid image\./)).toBeTruthy();
  });
});
