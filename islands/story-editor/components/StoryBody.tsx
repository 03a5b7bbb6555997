import { useEffect, useMemo, useState } from 'react';
import { useDispatch, useSelector, useStore } from 'react-redux';
import { EditorContent, useEditor } from '@tiptap/react';
import { ApiError } from '../../common/api';
import type { StoryDoc } from '../../../shared/newsroom';
import { storyEditorExtensions } from '../body/editor-extensions';
import { insertBlocks } from '../body/insert-block';
import { sanitizeStoryDoc } from '../body/sanitize-doc';
import { sameJson } from '../fields';
import { useServices } from '../services';
import { editorActions } from '../slice';
import type { StoryEditorRootState, StoryEditorStore } from '../store';
import { Toolbar } from './Toolbar';

// The body: TipTap on the story schema. Every change is counted in the store (and from there
// goes to this device's copy and the autosave); its JSON is read lazily, when the store needs
// it (store.ts), not on every key. A body replaced from outside (a restored revision, a
// conflict's choice, this device's copy) comes back in through `docRevision`.

export const PASTED_PICTURES_MESSAGE = 'Pictures pasted from other sites are not copied; upload them with the image button';

export function StoryBody() {
  const dispatch = useDispatch();
  const { api } = useServices();
  const store = useStore<StoryEditorRootState>() as StoryEditorStore;
  const docRevision = useSelector((s: StoryEditorRootState) => s.editor.docRevision);
  const storyId = useSelector((s: StoryEditorRootState) => s.editor.id);
  const [message, setMessage] = useState<string | null>(null);
  // Pictures taken out of a paste are announced on this target; the effect below, which sees
  // the current id and editor, handles them (the extensions are made once).
  const [pasted] = useState(() => new EventTarget());
  const extensions = useMemo(() => storyEditorExtensions({ onDroppedImages: (urls) => pasted.dispatchEvent(new CustomEvent('dropped', { detail: urls })) }), [pasted]);

  const editor = useEditor({
    extensions,
    content: store.getState().editor.fields.doc,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: { attributes: { class: 'story-body-editor', 'aria-label': 'Body', 'aria-multiline': 'true', role: 'textbox' } },
    onUpdate: () => {
      dispatch(editorActions.bodyEdited());
    },
  });
  useEffect(() => {
    if (!editor) return;
    return store.body.connect(() => sanitizeStoryDoc(editor.getJSON() as StoryDoc));
  }, [editor, store]);
  useEffect(() => {
    // The server may copy them (fetchPastedImage); until it can, the message stands.
    const onDropped = (e: Event) => {
      setMessage(PASTED_PICTURES_MESSAGE);
      if (storyId === null || !editor) return;
      for (const url of (e as CustomEvent<string[]>).detail) copyPicture(storyId, url);
    };
    const copyPicture = (id: number, url: string) =>
      api.fetchPastedImage(id, url).then(
        (key) => {
          if (editor) insertBlocks(editor, { type: 'image', attrs: { key, alt: '', credit: '', caption: '' } });
          setMessage('A pasted picture was copied: add its alt text and credit.');
        },
        (err: unknown) => {
          if (err instanceof ApiError && err.status === 400) setMessage(`A pasted picture was not copied: ${err.first('url') ?? err.message}`);
        },
      );
    pasted.addEventListener('dropped', onDropped);
    return () => pasted.removeEventListener('dropped', onDropped);
  }, [pasted, storyId, editor, api]);

  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const doc = store.getState().editor.fields.doc;
    if (!sameJson(sanitizeStoryDoc(editor.getJSON() as StoryDoc), doc)) editor.commands.setContent(doc, { emitUpdate: false });
    // Only a replaced body is pushed in; the editor's own changes are already in it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [docRevision, editor]);

  return (
    <section className="story-body" aria-labelledby="story-body-label">
      <h2 id="story-body-label" className="story-editor__label">Body</h2>
      {editor && <Toolbar editor={editor} onMessage={setMessage} />}
      {message && (
        <p className="story-body__message" role="status">
          {message}{' '}
          <button type="button" className="button--quiet" onClick={() => setMessage(null)}>Dismiss</button>
        </p>
      )}
      <EditorContent editor={editor} className="story-body__content" />
    </section>
  );
}
