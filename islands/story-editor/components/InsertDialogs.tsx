import { useCallback, useId, useState } from 'react';
import { Dialog } from '../../common/Dialog';
import { LIVE_CARD_KINDS, type LiveCardKind } from '../../../shared/newsroom';
import type { CardTarget, LinkTarget } from '../../../shared/story-dto';
import { parseYoutubeUrl } from '../body/youtube-url';
import { TYPED_LINK_ERROR, typedLinkHref } from '../body/typed-link';
import { useServices } from '../services';
import { LIVE_CARD_KIND_LABELS } from './NodeViews';
import { TypeAhead } from './TypeAhead';

// The toolbar's dialogs: a link (a story or place by name, or a typed address), a YouTube
// video (its address), a live card (a place, event or Best of list by name).

export function LinkDialog({ current, onSet, onRemove, onClose }: { current: string | null; onSet: (href: string) => void; onRemove: () => void; onClose: () => void }) {
  const { api } = useServices();
  const id = useId();
  const [url, setUrl] = useState(current ?? '');
  const [error, setError] = useState<string | null>(null);
  const search = useCallback((q: string) => api.linkTargets(q), [api]);
  const submit = () => {
    const href = typedLinkHref(url);
    if (!href) return setError(TYPED_LINK_ERROR);
    onSet(href);
  };
  return (
    <Dialog title={current ? 'Edit link' : 'Add a link'} onClose={onClose} className="story-dialog">
      <TypeAhead<LinkTarget> label="Find a story or place" search={search} optionLabel={(t) => t.label} optionDetail={(t) => `${t.kind} · ${t.url}`} onPick={(t) => onSet(t.url)} />
      <form
        className="story-dialog__form"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label htmlFor={`${id}-url`}>Or type an address</label>
        <input id={`${id}-url`} value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://… or /food/…" aria-invalid={Boolean(error)} aria-describedby={`${id}-err`} />
        <p id={`${id}-err`} className="field-error" role="alert">{error}</p>
        <div className="story-dialog__actions">
          <button type="submit">Set link</button>
          {current && <button type="button" className="button--secondary" onClick={onRemove}>Remove link</button>}
        </div>
      </form>
    </Dialog>
  );
}

export function YoutubeDialog({ onInsert, onClose }: { onInsert: (attrs: { videoId: string; start: number | null; caption: string }) => void; onClose: () => void }) {
  const id = useId();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog title="Add a YouTube video" onClose={onClose} className="story-dialog">
      <form
        className="story-dialog__form"
        onSubmit={(e) => {
          e.preventDefault();
          const video = parseYoutubeUrl(url);
          if (!video) return setError('Paste the address of a YouTube video (youtube.com/watch?v=… or youtu.be/…).');
          onInsert({ ...video, caption: '' });
        }}
      >
        <label htmlFor={`${id}-url`}>YouTube address</label>
        <input id={`${id}-url`} value={url} onChange={(e) => setUrl(e.target.value)} aria-invalid={Boolean(error)} aria-describedby={`${id}-err`} />
        <p id={`${id}-err`} className="field-error" role="alert">{error}</p>
        <div className="story-dialog__actions"><button type="submit">Add video</button></div>
      </form>
    </Dialog>
  );
}

export function LiveCardDialog({ onInsert, onClose }: { onInsert: (attrs: { kind: LiveCardKind; id: number; label: string }) => void; onClose: () => void }) {
  const { api } = useServices();
  const id = useId();
  const [kind, setKind] = useState<LiveCardKind>('place');
  const search = useCallback((q: string) => api.cardTargets(kind, q), [api, kind]);
  return (
    <Dialog title="Add a live card" onClose={onClose} className="story-dialog">
      <label htmlFor={`${id}-kind`}>Kind</label>
      <select id={`${id}-kind`} value={kind} onChange={(e) => setKind(e.target.value as LiveCardKind)}>
        {LIVE_CARD_KINDS.map((k) => <option key={k} value={k}>{LIVE_CARD_KIND_LABELS[k]}</option>)}
      </select>
      <TypeAhead<CardTarget> label="Name" scope={kind} search={search} optionLabel={(t) => t.label} optionDetail={(t) => t.detail} onPick={(t) => onInsert({ kind: t.kind, id: t.id, label: t.label })} />
    </Dialog>
  );
}
