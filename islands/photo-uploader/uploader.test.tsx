/// <reference types="jest" />
import { act, fireEvent, screen } from '@testing-library/react';
import { ApiError } from '../common/api';
import { readItem, STORAGE_KEYS, writeItem } from '../common/storage';
import { renderWithStore } from '../common/test-utils';
import { PhotoUploader, RecentUploadNotice } from './components/PhotoUploader';
import { isAcceptablePhoto } from './files';
import { initialUploaderState, uploader, uploaderSlice } from './slice';
import { createPhotoUploaderStore } from './store';

const settle = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
};
const jpeg = (name = 'a.jpg', size = 1000) => new File([new Uint8Array(size)], name, { type: 'image/jpeg' });

function setup(api: Partial<{ readAsBase64: jest.Mock; uploadPhoto: jest.Mock }> = {}, opts: { notice?: boolean; noticeMs?: number } = {}) {
  let nextPhotoId = 7;
  const ctx = {
    api: {
      readAsBase64: api.readAsBase64 ?? jest.fn().mockResolvedValue('QUJD'),
      uploadPhoto: api.uploadPhoto ?? jest.fn().mockImplementation((_b, onProgress: (p: number) => void) => { onProgress(50); return Promise.resolve({ id: nextPhotoId++ }); }),
    },
    navigate: jest.fn(),
    listingId: 42,
    completionPath: '/cafes/pilot-42/photos/',
    redirectDelayMs: 5,
    noticeMs: opts.noticeMs ?? 20,
  };
  const store = createPhotoUploaderStore(ctx, { notice: opts.notice ?? false });
  return { store, ctx };
}

describe('photo uploader', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  test('JPG only, up to the configured MB', () => {
    expect(isAcceptablePhoto(jpeg('a.jpg', 10), 6)).toBe(true);
    expect(isAcceptablePhoto(jpeg('a.JPEG', 6 * 1024 * 1024), 6)).toBe(true);
    expect(isAcceptablePhoto(jpeg('a.jpg', 6 * 1024 * 1024 + 1), 6)).toBe(false);
    expect(isAcceptablePhoto(new File(['x'], 'a.png', { type: 'image/png' }), 6)).toBe(false);
  });

  test('slice: success advances the index, failure clears pending, finished at the count', () => {
    let s = uploaderSlice.reducer(initialUploaderState, uploader.filesAdded([{ id: 'a', name: 'a.jpg', size: 1, previewUrl: '' }, { id: 'b', name: 'b.jpg', size: 1, previewUrl: '' }]));
    s = uploaderSlice.reducer(s, uploader.uploadStarted());
    expect(s).toMatchObject({ pending: true, activeIndex: 0 });
    expect(s.items[0].status).toBe('uploading');
    s = uploaderSlice.reducer(s, uploader.uploadProgress(42.4));
    expect(s.items[0].percent).toBe(42);
    s = uploaderSlice.reducer(s, uploader.uploadSucceeded());
    expect(s).toMatchObject({ pending: false, activeIndex: 1, phase: 'reading' });
    expect(s.items[0]).toMatchObject({ status: 'complete', percent: 100 });
    s = uploaderSlice.reducer(s, uploader.uploadStarted());
    s = uploaderSlice.reducer(s, uploader.uploadFailed('nope'));
    expect(s).toMatchObject({ pending: false, activeIndex: 1, error: 'nope', phase: 'select' });
    expect(s.items[1].status).toBe('error');
    s = uploaderSlice.reducer(s, uploader.uploadStarted());
    s = uploaderSlice.reducer(s, uploader.uploadSucceeded());
    expect(s.phase).toBe('finished');
  });

  test('a wrong file opens the spec dialog; good files preview, can be deleted, and post one at a time, then redirect', async () => {
    const { store, ctx } = setup();
    renderWithStore(<PhotoUploader maxMb={6} listingName="Pilot" cancelPath="/back/" />, store);
    expect(screen.getByText('Drag and drop your photos here, or...')).toBeTruthy();
    const input = screen.getByLabelText('Choose photos') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'x.png', { type: 'image/png' })] } });
    const dialog = screen.getByRole('dialog', { name: "Sorry, this photo can't be uploaded" });
    expect(dialog.textContent).toContain('We can only accept JPG photos that are 6mb or less. Please try again with a different image.');
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.change(input, { target: { files: [jpeg('one.jpg'), jpeg('two.jpg'), jpeg('three.jpg')] } });
    expect(screen.getByText('Drag and drop additional photos here, or...')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete two.jpg' }));
    expect(screen.getByRole('button', { name: 'Post 2 Photos' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Post 2 Photos' }));
    await act(settle);
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(ctx.api.uploadPhoto).toHaveBeenCalledTimes(2);
    expect(ctx.api.uploadPhoto.mock.calls[0][0]).toEqual({ image: 'QUJD', title: '', description: '', listing: 42 });
    expect(screen.getAllByText('Completed!').length).toBeGreaterThanOrEqual(2);
    expect(screen.getByText('Redirecting...')).toBeTruthy();
    // Back to the list at a URL the browser has not cached (the last photo's id): it shows the photos.
    expect(ctx.navigate).toHaveBeenCalledWith('/cafes/pilot-42/photos/?added=8');
    expect(readItem(STORAGE_KEYS.recentUploads)).toBe(2);
  });

  test('a failed upload stops at that file with its error; posting again retries from it', async () => {
    const uploadPhoto = jest.fn().mockRejectedValueOnce(new ApiError(400, { image: ['Upload a valid image.'] })).mockResolvedValue({ id: 2 });
    const { store, ctx } = setup({ uploadPhoto });
    renderWithStore(<PhotoUploader maxMb={6} listingName="Pilot" cancelPath="/back/" />, store);
    fireEvent.change(screen.getByLabelText('Choose photos'), { target: { files: [jpeg('one.jpg')] } });
    fireEvent.click(screen.getByRole('button', { name: 'Post 1 Photo' }));
    await act(settle);
    expect(screen.getByText('* Upload a valid image.')).toBeTruthy();
    expect(store.getState().uploader).toMatchObject({ pending: false, activeIndex: 0 });
    fireEvent.click(screen.getByRole('button', { name: 'Post 1 Photo' }));
    await act(settle);
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(ctx.navigate).toHaveBeenCalledTimes(1);
  });

  test('the recent-upload notice shows the stored count, clears it, and hides after its time', async () => {
    writeItem(STORAGE_KEYS.recentUploads, 3);
    const { store } = setup({}, { notice: true, noticeMs: 30 });
    renderWithStore(<RecentUploadNotice />, store);
    expect(screen.getByText('Thanks! Your 3 photos were added.')).toBeTruthy();
    expect(readItem(STORAGE_KEYS.recentUploads)).toBe(0);
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(screen.queryByText(/Thanks!/)).toBeNull();
  });
});
