import type { StoryEditorStore } from './store';

// The page's heading and title are printed by the server ("New story", "Edit story"); once the
// story is saved they name it, as the story list does, and follow its saved headline.

export const UNTITLED = 'Untitled story';

export function followPageHeading(store: StoryEditorStore, heading: Element | null = document.querySelector('.page-header__title')): () => void {
  let shown: string | null = null;
  const update = () => {
    const s = store.getState().editor;
    if (s.id === null) return;
    const name = s.saved.name.trim() || UNTITLED;
    if (name === shown) return;
    shown = name;
    if (heading) heading.textContent = name;
    // "New story | Site" → "Edit: Headline | Site", as the server titles a saved story's page.
    const site = document.title.includes(' | ') ? document.title.slice(document.title.lastIndexOf(' | ')) : '';
    document.title = `Edit: ${name}${site}`;
  };
  update();
  return store.subscribe(update);
}
