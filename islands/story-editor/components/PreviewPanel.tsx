import { useEffect, useState } from 'react';
import { useSelector } from 'react-redux';
import type { StoryPreviewLink } from '../../../shared/story-dto';
import { useServices } from '../services';
import type { StoryEditorRootState } from '../store';

// Preview links: made, listed with their expiry, copied, revoked.

const when = (iso: string) => new Date(iso).toLocaleString('en-CA', { timeZone: 'America/Toronto', dateStyle: 'medium', timeStyle: 'short' });

export function PreviewPanel() {
  const { api } = useServices();
  const id = useSelector((s: StoryEditorRootState) => s.editor.id);
  const [links, setLinks] = useState<StoryPreviewLink[]>([]);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    if (id === null) return;
    let live = true;
    api.previews(id).then((l) => live && setLinks(l), () => undefined);
    return () => {
      live = false;
    };
  }, [api, id]);
  if (id === null) return null;

  const create = () => api.createPreview(id).then((l) => (setLinks((ls) => [l, ...ls]), setMessage('Preview link made.')), () => setMessage('The link could not be made.'));
  const revoke = (pid: number) => api.revokePreview(id, pid).then(() => (setLinks((ls) => ls.filter((l) => l.id !== pid)), setMessage('Link revoked.')), () => setMessage('The link could not be revoked.'));
  const copy = (url: string) => {
    const abs = new URL(url, location.origin).href;
    if (!navigator.clipboard) return setMessage(`Copy it by hand: ${abs}`);
    navigator.clipboard.writeText(abs).then(() => setMessage('Link copied.'), () => setMessage(`Copy it by hand: ${abs}`));
  };

  return (
    <section className="story-panel" aria-labelledby="story-previews-title">
      <h2 id="story-previews-title" className="story-panel__title">Preview links</h2>
      <button type="button" className="button--secondary" onClick={() => void create()}>Create preview link</button>
      <ul className="story-previews">
        {links.map((l) => (
          <li key={l.id} className="story-preview">
            <a href={l.url} className="staff-break">{new URL(l.url, location.origin).href}</a>
            <span className="story-field__hint">Expires {when(l.expires_at)}</span>
            <span className="story-preview__actions">
              <button type="button" className="button--secondary" onClick={() => copy(l.url)} aria-label={`Copy preview link ${l.id}`}>Copy</button>
              <button type="button" className="button--quiet" onClick={() => void revoke(l.id)} aria-label={`Revoke preview link ${l.id}`}>Revoke</button>
            </span>
          </li>
        ))}
      </ul>
      {message && <p role="status">{message}</p>}
    </section>
  );
}
