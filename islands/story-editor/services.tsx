import { createContext, useContext } from 'react';
import type { StoryEditorApi } from './api';
import type { Autosaver } from './autosave';

// What the editor's components need from outside React: the API (a fake in tests) and the
// autosaver. Node views reach it too: they render in portals under the body (body/node-views.tsx).

export interface EditorServices {
  api: StoryEditorApi;
  autosaver: Autosaver;
}

export const ServicesContext = createContext<EditorServices | null>(null);

export function useServices(): EditorServices {
  const s = useContext(ServicesContext);
  if (!s) throw new Error('The story editor needs its services.');
  return s;
}
