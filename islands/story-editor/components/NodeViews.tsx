import { useId, useState, type ChangeEvent } from 'react';
import { imageUrl } from '../../../shared/format/image-url';
import { STORY_LIMITS, type GalleryItem, type LiveCardKind } from '../../../shared/newsroom';
import type { StoryNodeViewProps } from '../body/node-views';
import { useServices } from '../services';

// The editor's own blocks as the writer sees them: each picture with its alt text, credit
// and caption (warning while alt text or credit is missing), a gallery of them, a video, and
// a live card. Inputs inside a node view are left to the browser (body/node-views.tsx).

export const LIVE_CARD_KIND_LABELS: Record<LiveCardKind, string> = { place: 'Place', event: 'Event', bestOf: 'Best of list' };

function missingText(alt: string, credit: string): string | null {
  const missing = [!alt.trim() && 'alt text', !credit.trim() && 'a credit'].filter(Boolean);
  return missing.length ? `This picture needs ${missing.join(' and ')}.` : null;
}

interface PictureFieldsProps {
  item: Omit<GalleryItem, 'key'>;
  onChange: (patch: Partial<GalleryItem>) => void;
}

function PictureFields({ item, onChange }: PictureFieldsProps) {
  const id = useId();
  const warning = missingText(item.alt, item.credit);
  const text = (name: keyof Omit<GalleryItem, 'key'>) => (e: ChangeEvent<HTMLInputElement>) => onChange({ [name]: e.target.value });
  return (
    <div className="story-node__fields">
      <label htmlFor={`${id}-alt`}>Alt text</label>
      <input id={`${id}-alt`} value={item.alt} maxLength={STORY_LIMITS.altMax} onChange={text('alt')} aria-invalid={!item.alt.trim()} />
      <label htmlFor={`${id}-credit`}>Credit</label>
      <input id={`${id}-credit`} value={item.credit} maxLength={STORY_LIMITS.creditMax} onChange={text('credit')} aria-invalid={!item.credit.trim()} />
      <label htmlFor={`${id}-caption`}>Caption</label>
      <input id={`${id}-caption`} value={item.caption} maxLength={STORY_LIMITS.captionMax} onChange={text('caption')} />
      {warning && <p className="story-node__warning">{warning}</p>}
    </div>
  );
}

export function ImageNodeView({ node, updateAttributes, deleteNode, selected }: StoryNodeViewProps) {
  const a = node.attrs as GalleryItem;
  return (
    <div className={`story-node story-node--image${selected ? ' is-selected' : ''}`}>
      <img className="story-node__thumb" src={imageUrl(a.key, 'squareSmall')} alt="" width={170} height={170} />
      <PictureFields item={a} onChange={(patch) => updateAttributes(patch)} />
      <button type="button" className="button--secondary story-node__remove" onClick={deleteNode}>Remove picture</button>
    </div>
  );
}

export function GalleryNodeView({ node, updateAttributes, deleteNode, selected }: StoryNodeViewProps) {
  const { api } = useServices();
  const items = (node.attrs.items ?? []) as GalleryItem[];
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const set = (next: GalleryItem[]) => (next.length ? updateAttributes({ items: next }) : deleteNode());
  const add = async (files: FileList | null) => {
    if (!files?.length) return;
    setBusy(true);
    setError(null);
    const added: GalleryItem[] = [];
    for (const f of Array.from(files).slice(0, STORY_LIMITS.galleryMax - items.length)) {
      try {
        added.push({ key: await api.uploadImage(f), alt: '', credit: '', caption: '' });
      } catch {
        setError(`“${f.name}” could not be uploaded.`);
      }
    }
    setBusy(false);
    if (added.length) set([...((node.attrs.items ?? []) as GalleryItem[]), ...added]);
  };
  const move = (i: number, by: number) => {
    const next = items.slice();
    const [it] = next.splice(i, 1);
    next.splice(i + by, 0, it);
    set(next);
  };
  return (
    <div className={`story-node story-node--gallery${selected ? ' is-selected' : ''}`}>
      <p className="story-node__title">Gallery, {items.length} {items.length === 1 ? 'picture' : 'pictures'}</p>
      <ol className="story-node__gallery">
        {items.map((it, i) => (
          <li key={`${it.key}-${i}`} className="story-node__gallery-item">
            <img className="story-node__thumb" src={imageUrl(it.key, 'squareSmall')} alt="" width={170} height={170} />
            <PictureFields item={it} onChange={(patch) => set(items.map((x, k) => (k === i ? { ...x, ...patch } : x)))} />
            <div className="story-node__actions">
              <button type="button" className="button--secondary" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Move picture ${i + 1} earlier`}>←</button>
              <button type="button" className="button--secondary" disabled={i === items.length - 1} onClick={() => move(i, 1)} aria-label={`Move picture ${i + 1} later`}>→</button>
              <button type="button" className="button--secondary" onClick={() => set(items.filter((_, k) => k !== i))} aria-label={`Remove picture ${i + 1}`}>Remove</button>
            </div>
          </li>
        ))}
      </ol>
      <label className="button button--secondary story-node__add" htmlFor={inputId}>{busy ? 'Uploading…' : 'Add pictures'}</label>
      <input id={inputId} className="visually-hidden" type="file" accept="image/*" multiple disabled={busy} onChange={(e) => void add(e.target.files)} />
      {error && <p className="story-node__warning" role="alert">{error}</p>}
      <button type="button" className="button--quiet story-node__remove" onClick={deleteNode}>Remove gallery</button>
    </div>
  );
}

export function YoutubeNodeView({ node, updateAttributes, deleteNode, selected }: StoryNodeViewProps) {
  const id = useId();
  const { videoId, start, caption } = node.attrs as { videoId: string; start: number | null; caption: string };
  return (
    <div className={`story-node story-node--youtube${selected ? ' is-selected' : ''}`}>
      <p className="story-node__title">
        YouTube video <a href={`https://www.youtube.com/watch?v=${videoId}`} target="_blank" rel="noopener noreferrer">{videoId}</a>
      </p>
      <div className="story-node__fields">
        <label htmlFor={`${id}-start`}>Start at (seconds)</label>
        <input id={`${id}-start`} type="number" min={0} step={1} value={start ?? ''} onChange={(e) => updateAttributes({ start: e.target.value === '' ? null : Math.max(0, Math.floor(Number(e.target.value))) })} />
        <label htmlFor={`${id}-caption`}>Caption</label>
        <input id={`${id}-caption`} value={caption} maxLength={STORY_LIMITS.captionMax} onChange={(e) => updateAttributes({ caption: e.target.value })} />
      </div>
      <button type="button" className="button--secondary story-node__remove" onClick={deleteNode}>Remove video</button>
    </div>
  );
}

export function LiveCardNodeView({ node, deleteNode, selected }: StoryNodeViewProps) {
  const { kind, label } = node.attrs as { kind: LiveCardKind; id: number; label: string };
  return (
    <div className={`story-node story-node--card${selected ? ' is-selected' : ''}`}>
      <span className="story-node__kind">{LIVE_CARD_KIND_LABELS[kind] ?? kind}</span>
      <p className="story-node__title">{label}</p>
      <p className="story-node__hint">Live card: drawn from the current record when the page is shown.</p>
      <button type="button" className="button--secondary story-node__remove" onClick={deleteNode}>Remove card</button>
    </div>
  );
}
