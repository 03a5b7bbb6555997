import { useEffect, useState, useSyncExternalStore } from 'react';
import { useSelector, useStore } from 'react-redux';
import { NEWSROOM_TIMINGS } from '../../../shared/newsroom';
import type { StoryPresenceOther } from '../../../shared/story-dto';
import { useServices } from '../services';
import type { LivePeer, StoryEditorRootState, StoryEditorStore } from '../store';

// Who else has the story open: "I am here" every heartbeat, "I left" as the page goes. While
// the body is live and its link is up, who is in the story now comes from the shared
// document's awareness instead (names in their colours, as their carets show them); the
// heartbeat's list stands in whenever the link is down.

const time = (iso: string) => new Date(iso).toLocaleTimeString('en-CA', { timeZone: 'America/Toronto', hour: '2-digit', minute: '2-digit', hour12: false });

export function presenceText(o: StoryPresenceOther): string {
  return `${o.name} has this story open (since ${time(o.since)})`;
}

export const livePeerText = (p: LivePeer) => `${p.name} is editing`;

export function Presence({ heartbeatMs = NEWSROOM_TIMINGS.presenceHeartbeatMs }: { heartbeatMs?: number }) {
  const { api } = useServices();
  const id = useSelector((s: StoryEditorRootState) => s.editor.id);
  const [others, setOthers] = useState<StoryPresenceOther[]>([]);
  const store = useStore<StoryEditorRootState>() as StoryEditorStore;
  const peers = useSyncExternalStore(store.live.subscribePeers, store.live.getPeers);
  const linked = useSelector((s: StoryEditorRootState) => s.editor.live.mode === 'live' && s.editor.live.online);

  useEffect(() => {
    if (id === null) return;
    let live = true;
    const beat = () => api.presence(id).then((o) => live && setOthers(o), () => undefined);
    void beat();
    const timer = setInterval(beat, heartbeatMs);
    const leave = () => api.leave(id);
    window.addEventListener('pagehide', leave);
    return () => {
      live = false;
      clearInterval(timer);
      window.removeEventListener('pagehide', leave);
    };
  }, [api, id, heartbeatMs]);

  if (linked) {
    if (!peers.length) return null;
    return (
      <ul className="story-presence story-presence--live" aria-label="In this story now">
        {peers.map((p) => (
          <li key={p.clientId}>
            <span className="story-presence__swatch" style={{ backgroundColor: p.color }} aria-hidden="true" />
            {livePeerText(p)}
          </li>
        ))}
      </ul>
    );
  }
  if (!others.length) return null;
  return (
    <ul className="story-presence" aria-label="Also editing">
      {others.map((o) => <li key={`${o.name}-${o.since}`}>{presenceText(o)}</li>)}
    </ul>
  );
}
