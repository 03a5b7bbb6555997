import type { MouseEvent, Ref } from 'react';
import { useViewerDispatch, useViewerSelector } from '../hooks';
import { viewer } from '../slice';
import { pictureUrl } from '../../common/picture-url';

// The thumbnails the page printed (the photo list's grid, or the listing page's strip), the
// same markup as templates/photos/list.njk and templates/places/listing.njk. Each stays a
// link to the photo's own page: a plain click opens the viewer over this page instead, while
// a modified click (new tab, new window) is left to the browser.

export function PhotoThumbs({ onIntent, listRef }: { onIntent?: () => void; listRef?: Ref<HTMLUListElement> }) {
  const dispatch = useViewerDispatch();
  const printed = useViewerSelector((s) => s.viewer.printed);
  const offset = useViewerSelector((s) => s.viewer.offset);
  const layout = useViewerSelector((s) => s.viewer.layout);
  const open = (index: number) => (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    dispatch(viewer.opened({ index, closedPath: window.location.pathname + window.location.search }));
  };
  return (
    <ul ref={listRef} className={layout === 'grid' ? 'photo-grid' : 'photo-strip'} onPointerOver={onIntent} onFocus={onIntent}>
      {printed.map((p, i) => (
        <li key={p.id}>
          <a href={p.share_path} onClick={open(offset + i)}>
            <img
              src={pictureUrl(p.thumb_url)}
              width={340}
              height={340}
              alt={p.alt}
              {...(layout === 'grid' && i < 4 ? { fetchPriority: 'high' as const } : { loading: 'lazy' as const, decoding: 'async' as const })}
            />
          </a>
        </li>
      ))}
    </ul>
  );
}
