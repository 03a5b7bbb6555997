import type { CSSProperties } from 'react';
import { useViewerDispatch } from '../hooks';
import { viewer } from '../slice';

// What a tap on a thumbnail shows at once while the lightbox's code is still on its way (see
// lightbox-loader.ts): the viewer's dark backdrop and a word of progress, in the same frame as
// the tap. Its styles are inline: photo-viewer.css comes with the lightbox's chunk.

const BACKDROP: CSSProperties = {
  position: 'fixed',
  inset: 0,
  zIndex: 9999,
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: '1rem',
  padding: '1rem',
  backgroundColor: 'rgba(0, 0, 0, .92)',
  color: '#fff',
  font: '1rem/1.4 var(--font, system-ui, sans-serif)',
  textAlign: 'center',
};

export function ViewerLoading({ failed }: { failed: boolean }) {
  const dispatch = useViewerDispatch();
  return (
    <div className="photo-viewer-loading" style={BACKDROP}>
      <p role="status" style={{ margin: 0 }}>
        {failed ? 'The photo viewer could not be loaded. Please check your connection and try again.' : 'Loading photo…'}
      </p>
      {failed && (
        <button type="button" className="button" onClick={() => dispatch(viewer.closed({ via: 'ui' }))}>
          Close
        </button>
      )}
    </div>
  );
}
