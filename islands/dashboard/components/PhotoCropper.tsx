import { useEffect, useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import { TIMINGS_MS } from '../../../shared/constants';
import { cropToJpeg } from '../avatar';

// The square cropper of the profile photo (react-easy-crop). Loaded only when a member picks a
// photo, so the dashboard's first load does not carry it. The crop is drawn 200 ms after the
// last move (spec 1 §9 crop delay), not on every frame of a drag; that drawing is the preview
// and what Save sends.

export interface PhotoCropperProps {
  src: string;
  onCropped: (jpeg: string | null) => void;
  /** Overridable in tests. */
  crop?: (src: string, area: Area) => Promise<string>;
}

export default function PhotoCropper({ src, onCropped, crop: cropImage = cropToJpeg }: PhotoCropperProps) {
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area | null>(null);

  useEffect(() => {
    if (!area) return;
    onCropped(null);
    let live = true;
    const timer = setTimeout(() => {
      cropImage(src, area).then(
        (jpeg) => live && onCropped(jpeg),
        () => live && onCropped(null),
      );
    }, TIMINGS_MS.cropDelay);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [src, area]);

  return (
    <div className="dash-cropper">
      <div className="dash-cropper__area">
        <Cropper
          image={src}
          crop={crop}
          zoom={zoom}
          aspect={1}
          cropShape="round"
          showGrid={false}
          onCropChange={setCrop}
          onZoomChange={setZoom}
          onCropComplete={(_, pixels) => setArea(pixels)}
          mediaProps={{ alt: 'Your photo, to crop' }}
          cropperProps={{ role: 'group', 'aria-label': 'Crop area: drag or use the arrow keys to move the photo' }}
        />
      </div>
      <label className="dash-cropper__zoom">
        Zoom
        <input type="range" min={1} max={3} step={0.05} value={zoom} onChange={(e) => setZoom(Number(e.target.value))} />
      </label>
    </div>
  );
}
