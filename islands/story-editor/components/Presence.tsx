import { useEffect, useState } from 'react';
import { useSelector } from 'react-redux';
import { NEWSROOM_TIMINGS } from '../../../shared/newsroom';
import type { StoryPresenceOther } from '../../../shared/story-dto';
import { useServices } from '../services';
import type { StoryEditorRootState } from '../store';

// Who else has the story open: "I am here" every heartbeat, "I left" as the page goes.

const time = (iso: string) => new Date(iso).toLocaleTimeString('en-CA', { timeZone: 'America/Toronto', hour: '2-digit', minute: '2-digit', hour12: false });

export function presenceText(o: StoryPresenceOther): string {
  return `${o.name} has this story open (since ${time(o.since)})`;
}

export function Presence({ heartbeatMs = NEWSROOM_TIMINGS.presenceHeartbeatMs }: { heartbeatMs?: number }) {
  const { api } = useServices();
  const id = useSelector((s: StoryEditorRootState) => s.editor.id);
  const [others, setOthers] = useState<StoryPresenceOther[]>([]);

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

  if (!others.length) return null;
  return (
    <ul className="story-presence" aria-label="Also editing">
      {others.map((o) => <li key={`${o.name}-${o.since}`}>{presenceText(o)}</li>)}
    </ul>
  );
}
