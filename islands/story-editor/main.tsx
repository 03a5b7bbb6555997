import { Provider } from 'react-redux';
import { initialStateFor } from '../common/initial-state';
import { mountIsland } from '../common/mount';
import { storyEditorApi } from './api';
import { bootStoryEditor } from './boot';
import { loadStoryBody, StoryEditor } from './components/StoryEditor';
import { idbLocalCopies, memoryLocalCopies } from './local-copy';
import { followPageHeading } from './page-heading';
import { ServicesContext } from './services';

// /staff/stories/new/ and /staff/stories/{id}/ (staff pages only): the newsroom's story editor.
const init = initialStateFor('story-editor');
if (init) {
  // The body editor's chunk comes while the device's copy is read (StoryEditor.tsx).
  void loadStoryBody();
  const local = typeof indexedDB !== 'undefined' ? idbLocalCopies : memoryLocalCopies();
  void bootStoryEditor(init, {
    api: storyEditorApi,
    local,
    // The new story's own address, so a reload opens it (and its copy on this device).
    onCreated: (id) => history.replaceState(history.state, '', `/staff/stories/${id}/`),
  }).then(({ store, autosaver }) => {
    followPageHeading(store);
    mountIsland('story-editor', () => (
      <Provider store={store}>
        <ServicesContext.Provider value={{ api: storyEditorApi, autosaver, member: init.me }}>
          <StoryEditor types={init.types} />
        </ServicesContext.Provider>
      </Provider>
    ));
  });
}
