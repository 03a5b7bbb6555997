/// <reference types="jest" />
import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithStore } from '../../common/test-utils';
import type { ViewerHistory } from '../history';
import { createPhotoViewerStore } from '../store';
import { PhotoViewerApp } from './PhotoViewerApp';

// The first tap on a thumbnail shows the viewer's progress in the same render, before the
// lightbox's code is here; the lightbox replaces it once it is.

jest.mock('./Lightbox', () => ({ __esModule: true, default: () => 'The lightbox' }));

const history: ViewerHistory = { push: jest.fn(), replace: jest.fn(), back: jest.fn(), current: () => null, location: () => '/cafes/pilot-1/', listen: () => () => undefined };
const photo = {
  id: 100,
  share_path: '/cafes/pilot-1/photos/100/',
  thumb_url: '/media/p100.jpg',
  image_url: '/media/p100.jpg',
  width: 1200,
  height: 800,
  alt: 'Photo 1 of Pilot',
  title: '',
  description: '',
  credit: null,
  creation_date: '2026-01-01T00:00:00.000Z',
};

test('a tap before the lightbox is loaded shows progress at once, then the lightbox', async () => {
  const store = createPhotoViewerStore(
    { listing: { id: 1, name: 'Pilot' }, photos: [photo], offset: 0, count: 1, pageSize: 24, layout: 'grid' },
    { api: { listingPhotos: jest.fn() }, history },
  );
  renderWithStore(<PhotoViewerApp />, store);
  fireEvent.click(screen.getByRole('link', { name: 'Photo 1 of Pilot' }));
  expect(screen.getByRole('status').textContent).toBe('Loading photo…');
  expect(screen.queryByText('The lightbox')).toBeNull();
  await act(async () => {
    await new Promise((r) => setTimeout(r, 0));
  });
  expect(screen.getByText('The lightbox')).toBeTruthy();
  expect(screen.queryByRole('status')).toBeNull();
});
