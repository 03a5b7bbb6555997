import { lazy, Suspense } from 'react';
import { useViewerSelector } from '../hooks';
import { selectIsOpen } from '../slice';
import { PhotoThumbs } from './PhotoThumbs';

// The thumbnails, and the lightbox over the page while a photo is open. The lightbox's code
// (yet-another-react-lightbox and its styles) is read the first time the visitor points at
// or focuses a thumbnail, so a page that is only looked at never downloads it.

const loadLightbox = () => import('./Lightbox');
const Lightbox = lazy(loadLightbox);

export function PhotoViewerApp() {
  const open = useViewerSelector(selectIsOpen);
  return (
    <>
      <PhotoThumbs onIntent={loadLightbox} />
      {open && (
        <Suspense fallback={null}>
          <Lightbox />
        </Suspense>
      )}
    </>
  );
}
