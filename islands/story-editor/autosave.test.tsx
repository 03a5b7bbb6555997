/// <reference types="jest" />
import '../offline/test-idb';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { ApiError } from '../common/api';
import type { StoryDTO, StoryFields } from '../../shared/story-dto';
import type { StoryEditorApi } from './api';
import { bootStoryEditor } from './boot';
import { StoryEditor } from './components/StoryEditor';
import { blankFields } from './fields';
import { idbLocalCopies, memoryLocalCopies, restoreFrom } from './local-copy';
import { followPageHeading } from './page-heading';
import { ServicesContext } from './services';
import { editorActions } from './slice';

// Autosave, this device's copy, conflicts and the editor's status line, with a fake API.

const fields = (over: Partial<StoryFields> = {}): StoryFields => ({ ...blankFields(1, 'Ana Ruiz'), name: 'Patios', slug: 'patios', ...over });
const story = (version: number, f: StoryFields = fields(), over: Partial<StoryDTO> = {}): StoryDTO => ({
  id: 12, status: 'draft', version, fields: f, has_pending: false, path: '/food/2026/11/patios/', published_slug: null, type: { id: 1, name: 'Food', slug: 'food' }, public_url: null, date_published: null, scheduled_at: null,
  unpublish_at: null, published_late_minutes: null, author: { id: 3, name: 'Ana Ruiz' }, date_updated: '2026-11-29T10:00:00.000Z',
  permissions: { edit: true, submitForReview: true, publish: true, override: false, delete: true }, ...over,
});
const ME = { id: 3, name: 'Ana Ruiz', role: 'writer' as const };
const tick = () => act(() => new Promise((r) => setTimeout(r, 0)));
const wait = (ms: number) => act(() => new Promise((r) => setTimeout(r, ms)));

function fakeApi(over: Partial<StoryEditorApi> = {}): StoryEditorApi {
  return {
    create: jest.fn(async (f) => story(1, f as StoryFields)),
    save: jest.fn(async (_id, body) => story(body.base_version + 1, { ...fields(), ...body.fields })),
    submit: jest.fn(), publish: jest.fn(), schedule: jest.fn(), unpublish: jest.fn(), unschedule: jest.fn(),
    checks: jest.fn(async () => []), revisions: jest.fn(async () => []), revision: jest.fn(), restoreRevision: jest.fn(),
    previews: jest.fn(async () => []), createPreview: jest.fn(), revokePreview: jest.fn(),
    presence: jest.fn(async () => [{ name: 'Sam Lee', since: '2026-11-29T15:42:00.000Z' }]), leave: jest.fn(),
    linkTargets: jest.fn(async () => []), cardTargets: jest.fn(async () => []), uploadImage: jest.fn(async () => 'uploads/m3/a.jpg'),
    fetchPastedImage: jest.fn(async () => { throw new ApiError(404, { detail: 'Not found.' }); }),
    ...over,
  } as StoryEditorApi;
}

describe('story editor autosave', () => {
  test('saves only the changed fields on the base version after the pause, then clears the local copy', async () => {
    const api = fakeApi();
    const local = memoryLocalCopies();
    const { store, autosaver } = await bootStoryEditor({ story: story(7), types: [{ id: 1, name: 'Food' }], me: ME }, { api, local, onCreated: jest.fn(), debounceMs: 30, maxMs: 1000 });
    store.dispatch(editorActions.fieldChanged({ field: 'name', value: 'Patios of 2026' }));
    await autosaver.written();
    expect(local.copies.get('12')?.fields.name).toBe('Patios of 2026');
    expect(local.copies.get('12')?.baseVersion).toBe(7);
    await wait(60);
    expect(api.save).toHaveBeenCalledWith(12, { base_version: 7, fields: { name: 'Patios of 2026' } });
    await autosaver.written();
    expect(store.getState().editor.status).toBe('saved');
    expect(store.getState().editor.baseVersion).toBe(8);
    expect(local.copies.has('12')).toBe(false);
    autosaver.dispose();
  });

  test('offline: kept on this device, saved when the browser is back online; one save in flight at a time', async () => {
    let online = false;
    const save = jest.fn(async (_id: number, body: { base_version: number; fields: Partial<StoryFields> }) => {
      if (!online) throw new TypeError('Failed to fetch');
      await new Promise((r) => setTimeout(r, 20));
      return story(body.base_version + 1, { ...fields(), ...body.fields });
    });
    const api = fakeApi({ save });
    const local = memoryLocalCopies();
    const { store, autosaver } = await bootStoryEditor({ story: story(7), types: [], me: ME }, { api, local, onCreated: jest.fn(), debounceMs: 10 });
    store.dispatch(editorActions.fieldChanged({ field: 'excerpt', value: 'Every word' }));
    await autosaver.flush();
    expect(store.getState().editor.status).toBe('offline');
    expect(local.copies.get('12')?.fields.excerpt).toBe('Every word');
    online = true;
    window.dispatchEvent(new Event('online'));
    store.dispatch(editorActions.fieldChanged({ field: 'excerpt', value: 'Every word, and more' }));
    void autosaver.flush();
    await autosaver.flush();
    expect(save.mock.calls.filter(([, b]) => b.base_version === 7).length).toBeGreaterThanOrEqual(1);
    expect(store.getState().editor.fields.excerpt).toBe('Every word, and more');
    expect(store.getState().editor.saved.excerpt).toBe('Every word, and more');
    expect(local.copies.has('12')).toBe(false);
    autosaver.dispose();
  });

  test('a new story is created on its first save and its local copy moves to its id', async () => {
    const api = fakeApi();
    const local = memoryLocalCopies();
    const onCreated = jest.fn();
    const { store, autosaver } = await bootStoryEditor({ story: null, types: [{ id: 1, name: 'Food' }], me: ME }, { api, local, onCreated, debounceMs: 10 });
    store.dispatch(editorActions.fieldChanged({ field: 'name', value: 'New one' }));
    await autosaver.written();
    expect(local.copies.get('new')?.fields.name).toBe('New one');
    await autosaver.flush();
    expect(api.create).toHaveBeenCalledWith(expect.objectContaining({ name: 'New one', author_name: 'Ana Ruiz', type_id: 1 }));
    expect(onCreated).toHaveBeenCalledWith(12);
    expect(store.getState().editor.id).toBe(12);
    await autosaver.written();
    expect(local.copies.size).toBe(0);
    autosaver.dispose();
  });

  test('409: other fields are taken, the conflicting one waits for a choice and stays on this device', async () => {
    const theirs = fields({ name: 'Their headline', excerpt: 'Their dek' });
    const save = jest.fn(async (_id: number, body: { base_version: number; fields: Partial<StoryFields> }) => {
      if (body.fields.name === 'My headline') throw new ApiError(409, { detail: 'Conflict', conflicts: [{ field: 'name', mine: 'My headline', theirs: 'Their headline' }], story: story(9, { ...theirs, slug: body.fields.slug ?? theirs.slug }) } as never);
      return story(body.base_version + 1, { ...theirs, ...body.fields });
    });
    const api = fakeApi({ save });
    const local = memoryLocalCopies();
    const { store, autosaver } = await bootStoryEditor({ story: story(7), types: [], me: ME }, { api, local, onCreated: jest.fn(), debounceMs: 10 });
    store.dispatch(editorActions.fieldChanged({ field: 'name', value: 'My headline' }));
    store.dispatch(editorActions.fieldChanged({ field: 'slug', value: 'my-slug' }));
    await autosaver.flush();
    await autosaver.written();
    const s = store.getState().editor;
    expect(s.conflicts.map((c) => c.field)).toEqual(['name']);
    expect(s.fields.name).toBe('My headline');
    expect(s.fields.excerpt).toBe('Their dek');
    expect(s.baseVersion).toBe(9);
    expect(local.copies.get('12')?.fields.name).toBe('My headline');
    store.dispatch(editorActions.conflictResolved({ field: 'name', value: 'Their headline' }));
    await autosaver.flush();
    await autosaver.written();
    expect(store.getState().editor.conflicts).toEqual([]);
    expect(local.copies.has('12')).toBe(false);
    autosaver.dispose();
  });

  test('keys in the body read nothing until the copy and the save read the body once; the page heading names the story once saved', async () => {
    const api = fakeApi();
    const local = memoryLocalCopies();
    const heading = document.createElement('h1');
    heading.textContent = 'New story';
    document.title = 'New story | City guide';
    const { store, autosaver } = await bootStoryEditor({ story: null, types: [{ id: 1, name: 'Food' }], me: ME }, { api, local, onCreated: jest.fn(), debounceMs: 40 });
    const stop = followPageHeading(store, heading);
    const doc = (text: string) => ({ type: 'doc' as const, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });
    let body = doc('F');
    const read = jest.fn(() => body);
    store.body.connect(read);
    for (const text of ['Fi', 'Fir', 'First words']) {
      body = doc(text);
      store.body.edited();
    }
    // A keystroke neither reads the body nor goes through Redux.
    expect(read).not.toHaveBeenCalled();
    expect(store.getState().editor.edits).toBe(0);
    expect(heading.textContent).toBe('New story');
    await autosaver.written();
    expect(local.copies.get('new')?.fields.doc).toEqual(doc('First words'));
    await wait(120);
    await autosaver.flush();
    expect(api.create).toHaveBeenCalledTimes(1);
    expect(api.create).toHaveBeenCalledWith(expect.objectContaining({ doc: doc('First words') }));
    expect(read.mock.calls.length).toBeLessThanOrEqual(2);
    expect(heading.textContent).toBe('Untitled story');
    expect(document.title).toBe('Edit: Untitled story | City guide');
    store.dispatch(editorActions.fieldChanged({ field: 'name', value: 'Patios of 2026' }));
    expect(heading.textContent).toBe('Untitled story');
    await autosaver.flush();
    expect(heading.textContent).toBe('Patios of 2026');
    expect(document.title).toBe('Edit: Patios of 2026 | City guide');
    stop();
    autosaver.dispose();
  });

  test('leaving the page keeps the last keys at once (an IndexedDB write may not outlive it), and the newer copy wins on load', async () => {
    const api = fakeApi();
    const local = memoryLocalCopies();
    const putNow = jest.spyOn(local, 'putNow');
    const { store, autosaver } = await bootStoryEditor({ story: story(7), types: [], me: ME }, { api, local, onCreated: jest.fn(), debounceMs: 10_000 });
    const doc = (text: string) => ({ type: 'doc' as const, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });
    store.body.connect(() => doc('The last words'));
    store.body.edited();
    window.dispatchEvent(new Event('pagehide'));
    expect(putNow).toHaveBeenCalledTimes(1);
    expect(local.copies.get('12')?.fields.doc).toEqual(doc('The last words'));
    await autosaver.written();
    // Nothing newer than what IndexedDB holds: nothing more to keep at once.
    window.dispatchEvent(new Event('pagehide'));
    expect(putNow).toHaveBeenCalledTimes(1);
    autosaver.dispose();

    // The browser's stores: the synchronous copy (localStorage) is read when it is the newer.
    const server = story(7);
    const older = { key: '12', memberId: 3, baseVersion: 7, fields: { ...server.fields, excerpt: 'Older' }, saved: server.fields, updatedAt: 1 };
    await idbLocalCopies.put(older);
    idbLocalCopies.putNow!({ ...older, fields: { ...server.fields, excerpt: 'Newer' }, updatedAt: 2 });
    expect((await idbLocalCopies.get('12'))?.fields.excerpt).toBe('Newer');
    await idbLocalCopies.put({ ...older, fields: { ...server.fields, excerpt: 'Newest' }, updatedAt: 3 });
    expect(localStorage.getItem('newsroom-draft:12')).toBeNull();
    expect((await idbLocalCopies.get('12'))?.fields.excerpt).toBe('Newest');
    idbLocalCopies.putNow!({ ...older, updatedAt: 4 });
    await idbLocalCopies.delete('12');
    expect(await idbLocalCopies.get('12')).toBeUndefined();
  });

  test('a 400 names the field in the status line', async () => {
    const api = fakeApi({ save: jest.fn(async () => { throw new ApiError(400, { slug: ['This slug is taken.'] }); }) });
    const { store, autosaver } = await bootStoryEditor({ story: story(7), types: [], me: ME }, { api, local: memoryLocalCopies(), onCreated: jest.fn() });
    store.dispatch(editorActions.fieldChanged({ field: 'slug', value: 'taken' }));
    await autosaver.flush();
    expect(store.getState().editor.error).toBe('Not saved — Slug: This slug is taken.');
    autosaver.dispose();
  });

  test('on load a copy in IndexedDB with changes the server lacks is restored and saved', async () => {
    const server = story(7);
    await idbLocalCopies.put({ key: '12', memberId: 3, baseVersion: 7, fields: { ...server.fields, excerpt: 'Typed offline' }, saved: server.fields, updatedAt: 1 });
    const api = fakeApi();
    const { store, autosaver } = await bootStoryEditor({ story: server, types: [], me: ME }, { api, local: idbLocalCopies, onCreated: jest.fn() });
    expect(store.getState().editor.fields.excerpt).toBe('Typed offline');
    expect(store.getState().editor.restoredFromDevice).toBe(true);
    await autosaver.flush();
    expect(api.save).toHaveBeenCalledWith(12, { base_version: 7, fields: { excerpt: 'Typed offline' } });
    await autosaver.written();
    expect(await idbLocalCopies.get('12')).toBeUndefined();
    // Made on an older version: only the writer's own changes are replayed, on the old base.
    const older = restoreFrom({ key: '12', memberId: 3, baseVersion: 5, fields: { ...server.fields, name: 'Mine' }, saved: server.fields, updatedAt: 1 }, story(7, fields({ excerpt: 'Theirs' })), server.fields, 3);
    expect(older).toEqual({ fields: { ...fields({ excerpt: 'Theirs' }), name: 'Mine' }, saved: fields({ excerpt: 'Theirs' }), baseVersion: 5 });
    expect(restoreFrom({ key: '12', memberId: 4, baseVersion: 7, fields: fields({ name: 'x' }), saved: fields(), updatedAt: 1 }, story(7), fields(), 3)).toBeNull();
    autosaver.dispose();
  });
});

describe('story editor page', () => {
  test('status line, SEO counter, presence, slug redirect note and Ctrl-S', async () => {
    const api = fakeApi();
    const published = story(7, fields(), { status: 'published', public_url: 'http://x/food/2026/11/patios/' });
    const { store, autosaver } = await bootStoryEditor({ story: published, types: [{ id: 1, name: 'Food' }], me: ME }, { api, local: memoryLocalCopies(), onCreated: jest.fn(), debounceMs: 10_000 });
    render(
      <Provider store={store}>
        <ServicesContext.Provider value={{ api, autosaver }}>
          <StoryEditor types={[{ id: 1, name: 'Food' }]} />
        </ServicesContext.Provider>
      </Provider>,
    );
    await tick();
    expect(screen.getByText(/Sam Lee has this story open \(since \d\d:\d\d\)/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('SEO description'), { target: { value: 'x'.repeat(170) } });
    expect(screen.getByText('170 / 160 — too long')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Slug'), { target: { value: 'patios-2026' } });
    expect(screen.getAllByText('The old address will redirect to the new one.').length).toBeGreaterThan(0);
    fireEvent.keyDown(document, { key: 's', ctrlKey: true });
    await tick();
    expect(api.save).toHaveBeenCalledWith(12, { base_version: 7, fields: { seo_description: 'x'.repeat(170), slug: 'patios-2026' }, explicit: true });
    await tick();
    expect(screen.getByRole('status', { name: '' }).textContent).toBe('Saved');
    expect(screen.getByRole('toolbar', { name: 'Body formatting' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^(Publish|Update)$/ })).toBeTruthy();
    autosaver.dispose();
  });
});
