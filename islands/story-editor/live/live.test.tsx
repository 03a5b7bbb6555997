/// <reference types="jest" />
import '../../offline/test-idb';
import { act, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import * as Y from 'yjs';
import { prosemirrorJSONToYXmlFragment } from 'y-prosemirror';
import type { StoryDoc } from '../../../shared/newsroom';
import { storySchema } from '../../../shared/story-pm-schema';
import type { StoryDTO, StoryFields } from '../../../shared/story-dto';
import type { StoryEditorApi } from '../api';
import { bootStoryEditor } from '../boot';
import { docPlainText } from '../doc-text';
import { blankFields } from '../fields';
import { memoryLocalCopies, restoreFrom } from '../local-copy';
import { ServicesContext, type EditorServices } from '../services';
import { editorActions } from '../slice';
import { StoryEditor } from '../components/StoryEditor';
import { saveStatusOf } from '../components/SaveStatus';
import { BODY_FRAGMENT, bodyOfState, encodeBody, mergeBody } from './shared-state';
import { LIVE_EDITING } from '../../../shared/newsroom';
import { openLiveSession } from './session';

// The live body without a server: what the autosave sends while live, the status line's words,
// the body's shared state kept on this device and merged on opening, and the link given up
// (refused, or never answered) with the body saved as before.

const body = (...paragraphs: string[]): StoryDoc => ({ type: 'doc', content: paragraphs.map((p) => ({ type: 'paragraph', content: [{ type: 'text', text: p }] })) });
const fields = (over: Partial<StoryFields> = {}): StoryFields => ({ ...blankFields(1, 'Ana Ruiz'), name: 'Patios', slug: 'patios', doc: body('Server text'), ...over });
const story = (version: number, f: StoryFields = fields()): StoryDTO => ({
  id: 12, status: 'draft', version, fields: f, has_pending: false, path: '/food/2026/11/patios/', published_slug: null, type: { id: 1, name: 'Food', slug: 'food' }, public_url: null, date_published: null, scheduled_at: null,
  unpublish_at: null, published_late_minutes: null, author: { id: 3, name: 'Ana Ruiz' }, date_updated: '2026-11-29T10:00:00.000Z',
  permissions: { edit: true, submitForReview: true, publish: true, override: false, delete: true },
});
const ME = { id: 3, name: 'Ana Ruiz', role: 'writer' as const };

function fakeApi(): StoryEditorApi {
  return {
    create: jest.fn(), save: jest.fn(async (_id, b) => story(b.base_version + 1, { ...fields(), ...b.fields })),
    submit: jest.fn(), publish: jest.fn(), schedule: jest.fn(), unpublish: jest.fn(), unschedule: jest.fn(),
    checks: jest.fn(async () => []), revisions: jest.fn(async () => []), revision: jest.fn(), restoreRevision: jest.fn(async () => story(9, fields({ name: 'Old name', doc: body('Old body') }))),
    previews: jest.fn(async () => []), createPreview: jest.fn(), revokePreview: jest.fn(),
    presence: jest.fn(async () => [{ name: 'Sam Lee', since: '2026-11-29T15:42:00.000Z' }]), leave: jest.fn(),
    linkTargets: jest.fn(async () => []), cardTargets: jest.fn(async () => []), uploadImage: jest.fn(), fetchPastedImage: jest.fn(),
  } as unknown as StoryEditorApi;
}

/** A shared document as the server would hold it, seeded from the story's body. */
function serverDoc(json: StoryDoc): Y.Doc {
  const doc = new Y.Doc();
  prosemirrorJSONToYXmlFragment(storySchema, json, doc.getXmlFragment(BODY_FRAGMENT));
  return doc;
}

/** Appends a paragraph to a shared body, as another writer's editor would. */
function typeInto(doc: Y.Doc, text: string): void {
  const p = new Y.XmlElement('paragraph');
  p.insert(0, [new Y.XmlText(text)]);
  doc.getXmlFragment(BODY_FRAGMENT).push([p]);
}

/**
 * A socket that is never answered (offline, or a server without the endpoint), or that the
 * server closes at once with `closeWith`. Counts how many were opened.
 */
function fakeSocket(closeWith?: number) {
  const opened: FakeSocket[] = [];
  class FakeSocket extends EventTarget {
    static readonly CONNECTING = 0;
    static readonly OPEN = 1;
    readyState = 0;
    binaryType = 'arraybuffer';
    identifier = 0;
    constructor(public url: string) {
      super();
      opened.push(this);
      if (closeWith) setTimeout(() => {
        this.readyState = 3;
        this.dispatchEvent(Object.assign(new Event('close'), { code: closeWith, reason: 'Forbidden' }));
      }, 5);
    }
    send() {}
    close() {
      this.readyState = 3;
    }
  }
  return { FakeSocket, opened };
}

describe('the body shared state kept on this device', () => {
  test('merges with what others typed meanwhile, never replacing it', () => {
    const server = serverDoc(body('Server text'));
    // This device had the document, went offline and typed; the tab was closed.
    const mine = new Y.Doc();
    Y.applyUpdate(mine, Y.encodeStateAsUpdate(server));
    typeInto(mine, 'Typed offline');
    const kept = encodeBody(mine);
    // Meanwhile another writer typed on the server.
    typeInto(server, 'Typed by Sam');
    // Opening again: the kept state is merged into the server's document.
    expect(mergeBody(server, kept)).toBe(true);
    const text = docPlainText(bodyOfState(encodeBody(server))!);
    expect(text).toContain('Server text');
    expect(text).toContain('Typed offline');
    expect(text).toContain('Typed by Sam');
    // Merged twice: no paragraph doubles.
    mergeBody(server, kept);
    expect(docPlainText(bodyOfState(encodeBody(server))!).match(/Typed offline/g)).toHaveLength(1);
    expect(mergeBody(server, 'not a state')).toBe(false);
  });

  test('a copy with the shared state restores the other fields and carries the state, not its JSON body', () => {
    const kept = encodeBody(serverDoc(body('Device body')));
    const saved = fields();
    const copy = { key: '12', memberId: 3, baseVersion: 7, fields: { ...saved, name: 'Patios, live', doc: body('Device body') }, saved, updatedAt: 1, yState: kept };
    const server = story(8, fields({ doc: body('Server body, newer') }));
    const restore = restoreFrom(copy, server, blankFields(1, 'Ana Ruiz'), 3)!;
    expect(restore.fields.name).toBe('Patios, live');
    expect(restore.fields.doc).toEqual(body('Server body, newer'));
    expect(restore.yState).toBe(kept);
    expect(restore.baseVersion).toBe(7);
  });
});

describe('autosave and the status line while live', () => {
  test('the PATCH leaves the body out while live and sends it again once the link is given up', async () => {
    const api = fakeApi();
    const { store, autosaver } = await bootStoryEditor({ story: story(7), types: [], me: ME }, { api, local: memoryLocalCopies(), onCreated: jest.fn(), debounceMs: 10 });
    store.dispatch(editorActions.liveChanged({ mode: 'live', online: true, unsynced: false }));
    store.body.connect(() => body('Server text', 'Typed live'));
    store.body.edited();
    store.dispatch(editorActions.fieldChanged({ field: 'name', value: 'Patios live' }));
    await autosaver.flush();
    expect(api.save).toHaveBeenLastCalledWith(12, { base_version: 7, fields: { name: 'Patios live' } });
    // The server's answer carries its (older) copy of the body: the live body is kept.
    expect(store.getState().editor.fields.doc).toEqual(body('Server text', 'Typed live'));
    store.dispatch(editorActions.liveChanged({ mode: 'unavailable', online: false }));
    store.body.edited();
    await autosaver.flush();
    expect(api.save).toHaveBeenLastCalledWith(12, { base_version: 8, fields: { doc: body('Server text', 'Typed live') } });
    autosaver.dispose();
  });

  test('a restore while live takes the other fields and leaves the body to the shared document', async () => {
    const { store, autosaver } = await bootStoryEditor({ story: story(7), types: [], me: ME }, { api: fakeApi(), local: memoryLocalCopies(), onCreated: jest.fn(), debounceMs: 10_000 });
    store.dispatch(editorActions.liveChanged({ mode: 'live', online: true }));
    const revision = store.getState().editor.docRevision;
    store.dispatch(editorActions.storyReplaced(story(9, fields({ name: 'Old name', doc: body('Old body') }))));
    const s = store.getState().editor;
    expect(s.fields.name).toBe('Old name');
    expect(s.fields.doc).toEqual(body('Server text'));
    expect(s.docRevision).toBe(revision);
    autosaver.dispose();
  });

  test('the status line: offline while the link is down, saving while the server lacks body changes, saved when it has them all', () => {
    const live = (over: object) => ({ mode: 'live' as const, online: true, unsynced: false, ...over });
    expect(saveStatusOf({ status: 'saved', error: null, live: live({ online: false }) }).text).toBe('Offline — kept on this device');
    expect(saveStatusOf({ status: 'saved', error: null, live: live({ unsynced: true }) }).text).toBe('Saving…');
    expect(saveStatusOf({ status: 'saving', error: null, live: live({}) }).text).toBe('Saving…');
    expect(saveStatusOf({ status: 'saved', error: null, live: live({}) }).text).toBe('Saved');
    expect(saveStatusOf({ status: 'error', error: 'Not saved — Slug: taken.', live: live({ online: false }) }).text).toBe('Not saved — Slug: taken.');
    // Not live: the link's state says nothing.
    expect(saveStatusOf({ status: 'saved', error: null, live: { mode: 'unavailable', online: false, unsynced: true } }).text).toBe('Saved');
  });

  test('the body acknowledged after a field-less burst of typing reads "Saved"', async () => {
    const { store, autosaver } = await bootStoryEditor({ story: story(7), types: [], me: ME }, { api: fakeApi(), local: memoryLocalCopies(), onCreated: jest.fn(), debounceMs: 10_000 });
    store.dispatch(editorActions.liveChanged({ mode: 'live', online: true, unsynced: true }));
    expect(saveStatusOf(store.getState().editor).text).toBe('Saving…');
    store.dispatch(editorActions.liveChanged({ unsynced: false }));
    expect(saveStatusOf(store.getState().editor).text).toBe('Saved');
    autosaver.dispose();
  });
});

describe('who is in the story, and conflicts, while live', () => {
  test('the list comes from the shared document while the link is up, from the heartbeat when it is down; the body is never a conflict', async () => {
    const api = fakeApi();
    const { store, autosaver } = await bootStoryEditor({ story: story(7), types: [], me: ME }, { api, local: memoryLocalCopies(), onCreated: jest.fn(), debounceMs: 10_000 });
    render(
      <Provider store={store}>
        <ServicesContext.Provider value={{ api, autosaver, live: false }}>
          <StoryEditor types={[{ id: 1, name: 'Food' }]} />
        </ServicesContext.Provider>
      </Provider>,
    );
    await screen.findByText(/Sam Lee has this story open/);
    act(() => {
      store.dispatch(editorActions.liveChanged({ mode: 'live', online: true }));
      store.live.setPeers([{ clientId: 7, name: 'Ben Okafor', color: '#2f7d32' }]);
    });
    const live = screen.getByRole('list', { name: 'In this story now' });
    expect(live.textContent).toBe('Ben Okafor is editing');
    expect(screen.queryByText(/Sam Lee has this story open/)).toBeNull();
    // A 409 on another field while live: its panel shows, never the body.
    act(() => {
      store.dispatch(editorActions.saveConflicted({ body: { detail: 'Conflict', conflicts: [{ field: 'doc', mine: body('a'), theirs: body('b') }, { field: 'name', mine: 'Mine', theirs: 'Theirs' }], story: story(8) }, sent: { name: 'Mine' } }));
    });
    await screen.findByRole('button', { name: 'Keep mine: Headline' });
    expect(screen.queryByRole('button', { name: 'Keep mine: Body' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Combine' })).toBeNull();
    // The link down: the heartbeat's list again.
    act(() => {
      store.dispatch(editorActions.liveChanged({ online: false }));
    });
    expect(screen.queryByRole('list', { name: 'In this story now' })).toBeNull();
    expect(screen.getByText(/Sam Lee has this story open/)).toBeTruthy();
    autosaver.dispose();
  });
});

describe('the live link', () => {
  test('refused with 4403: given up at once, never tried again', async () => {
    const { FakeSocket, opened } = fakeSocket(LIVE_EDITING.closeForbidden);
    const onFail = jest.fn();
    const onReady = jest.fn();
    openLiveSession({ storyId: 12, user: { name: 'Ana Ruiz', color: '#1b5e9c' }, deviceState: null, url: 'ws://x/api/v2/staff/live/', WebSocketPolyfill: FakeSocket, onReady, onFail, onState: jest.fn(), onPeers: jest.fn() });
    await waitFor(() => expect(onFail).toHaveBeenCalledWith('refused'));
    expect(opened[0].url).toBe('ws://x/api/v2/staff/live/');
    // The provider would try again after a second; it must not.
    await act(() => new Promise((r) => setTimeout(r, 1500)));
    expect(opened).toHaveLength(1);
    expect(onReady).not.toHaveBeenCalled();
  });

  function mount(services: EditorServices, store: Parameters<typeof Provider>[0]['store']) {
    return render(
      <Provider store={store}>
        <ServicesContext.Provider value={services}>
          <StoryEditor types={[{ id: 1, name: 'Food' }]} />
        </ServicesContext.Provider>
      </Provider>,
    );
  }

  test('never answered: the body says so, is editable again and is saved with PATCH as before', async () => {
    const { FakeSocket } = fakeSocket();
    const api = fakeApi();
    const { store, autosaver } = await bootStoryEditor({ story: story(7), types: [], me: ME }, { api, local: memoryLocalCopies(), onCreated: jest.fn(), debounceMs: 10_000 });
    mount({ api, autosaver, member: ME, live: { WebSocketPolyfill: FakeSocket, firstSyncMs: 200 } }, store);
    await screen.findByText('Connecting to the live story…');
    const editor = await screen.findByRole('textbox', { name: 'Body' });
    expect(editor.getAttribute('contenteditable')).toBe('false');
    await screen.findByText(/Live editing is not available right now/);
    expect(store.getState().editor.live.mode).toBe('unavailable');
    expect(editor.getAttribute('contenteditable')).toBe('true');
    autosaver.dispose();
  });

  test('a tab closed while offline: its kept body state is merged on opening, offline, and stays on the device until the server has it', async () => {
    const { FakeSocket } = fakeSocket();
    const api = fakeApi();
    const local = memoryLocalCopies();
    const mine = serverDoc(body('Server text'));
    typeInto(mine, 'Typed offline before the tab closed');
    const saved = fields();
    await local.put({ key: '12', memberId: 3, baseVersion: 7, fields: saved, saved, updatedAt: 1, yState: encodeBody(mine) });
    const { store, autosaver } = await bootStoryEditor({ story: story(7), types: [], me: ME }, { api, local, onCreated: jest.fn(), debounceMs: 10_000 });
    mount({ api, autosaver, member: ME, live: { WebSocketPolyfill: FakeSocket, firstSyncMs: 200 } }, store);
    const editor = await screen.findByRole('textbox', { name: 'Body' });
    await waitFor(() => expect(editor.textContent).toContain('Typed offline before the tab closed'));
    expect(store.getState().editor.live.mode).toBe('live');
    expect(editor.getAttribute('contenteditable')).toBe('true');
    // No answer is no reason to give the link up: the writer goes on, offline.
    await act(() => new Promise((r) => setTimeout(r, 300)));
    expect(store.getState().editor.live.mode).toBe('live');
    expect(screen.getByText('Offline — kept on this device')).toBeTruthy();
    await autosaver.flush();
    await autosaver.written();
    const copy = local.copies.get('12')!;
    expect(copy.yState).toBeTruthy();
    expect(docPlainText(bodyOfState(copy.yState!)!)).toContain('Typed offline before the tab closed');
    // The body never went out as JSON.
    for (const [, b] of (api.save as jest.Mock).mock.calls) expect(b.fields).not.toHaveProperty('doc');
    autosaver.dispose();
  });
});
