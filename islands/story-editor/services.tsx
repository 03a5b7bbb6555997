import { createContext, useContext } from 'react';
import type { StoryEditorApi } from './api';
import type { Autosaver } from './autosave';
import type { NewsroomRole } from '../../shared/newsroom';

// What the editor's components need from outside React: the API (a fake in tests) and the
// autosaver. Node views reach it too: they render in portals under the body (body/node-views.tsx).

export interface EditorServices {
  api: StoryEditorApi;
  autosaver: Autosaver;
  /**
   * The signed-in staff member: their name and colour in the live story (live/), and their
   * role (an editor may delete anyone's comment). Without it the body is not live.
   */
  member?: { id: number; name: string; role?: NewsroomRole | null };
  /** The body's live link's options, for tests (live/live-body.ts); `false` keeps the body off the link. */
  live?: false | { WebSocketPolyfill?: unknown; url?: string; firstSyncMs?: number };
}

export const ServicesContext = createContext<EditorServices | null>(null);

export function useServices(): EditorServices {
  const s = useContext(ServicesContext);
  if (!s) throw new Error('The story editor needs its services.');
  return s;
}
