import { useEffect, useRef } from 'react';
import { useViewerSelector } from '../hooks';
import { loadLightbox, preloadWhenNear, useLightboxLoad } from '../lightbox-loader';
import { selectIsOpen } from '../slice';
import { PhotoThumbs } from './PhotoThumbs';
import { ViewerLoading } from './ViewerLoading';

// The thumbnails, and the lightbox over the page while a photo is open. The lightbox's code is
// read ahead (lightbox-loader.ts); a tap before it is here shows the viewer's progress at once.

export function PhotoViewerApp() {
  const open = useViewerSelector(selectIsOpen);
  const { status, Lightbox } = useLightboxLoad();
  const thumbs = useRef<HTMLUListElement>(null);
  useEffect(() => (thumbs.current ? preloadWhenNear(thumbs.current) : undefined), []);
  // Opened without a tap on a thumbnail (Forward onto a photo): read it now.
  useEffect(() => {
    if (open) void loadLightbox();
  }, [open]);
  return (
    <>
      <PhotoThumbs onIntent={loadLightbox} listRef={thumbs} />
      {open && (Lightbox ? <Lightbox /> : <ViewerLoading failed={status === 'failed'} />)}
    </>
  );
}
