import * as Y from 'yjs';
import { createMember, createTestContext, memberAgent, memberSessionCookie, type Agent, type MemberFixture, type TestContext } from '../../testing/test-app';
import { createArticleType } from '../../testing/fixtures';
import { waitFor } from '../../testing/wait-for';
import { websocketUpgradeStatus } from '../../testing/upgrade-status';
import { LIVE_BODY_FIELD, LIVE_EDITING, type LiveComment, type NewsroomRole, type StoryDoc } from '../../../shared/newsroom';
import { appendParagraph, bodyText, connectLive, listenWithUpgrades, type LiveClient } from './test-live-client';

// Live co-editing's websocket in the real app (issue 42): who is refused and when (before any
// document data), two editors seeing each other's changes, the body written into the story,
// a restore everybody sees, and an update outside the story schema refused with nothing kept.

const doc = (...paragraphs: string[]): StoryDoc => ({ type: 'doc', content: paragraphs.map((p) => ({ type: 'paragraph', content: [{ type: 'text', text: p }] })) });

describe('live co-editing over the websocket', () => {
  let t: TestContext;
  let live: Awaited<ReturnType<typeof listenWithUpgrades>>;
  let origin: string;
  const members: Partial<Record<NewsroomRole | 'member', MemberFixture & { cookie: string; agent: Agent }>> = {};
  const clients: LiveClient[] = [];
  let typeId: number;

  beforeAll(async () => {
    t = await createTestContext();
    live = await listenWithUpgrades(t);
    origin = new URL(t.ctx.config.site.url).origin;
    typeId = await createArticleType(t.ctx.db, 'news', 'News');
    for (const role of ['contributor', 'writer', 'editor', 'member'] as const) {
      const m = await createMember(t.ctx, { full_name: `${role} person`, email: `${role}@example.com` });
      if (role !== 'member') await t.ctx.db('profiles').where({ id: m.id }).update({ newsroom_role: role });
      members[role] = { ...m, cookie: await memberSessionCookie(t, m), agent: await memberAgent(t, m) };
    }
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.destroy();
  });
  afterAll(async () => {
    await t.ctx.sharedStories.close();
    await live.close();
    await t.close();
  });

  const api = (role: NewsroomRole) => {
    const a = members[role]!.agent;
    return {
      get: (p: string) => a.get(`/api/v2/staff/${p}`),
      post: (p: string, body: object = {}) => a.post(`/api/v2/staff/${p}`).set('X-CSRFToken', a.csrfToken).send(body),
      patch: (p: string, body: object) => a.patch(`/api/v2/staff/${p}`).set('X-CSRFToken', a.csrfToken).send(body),
    };
  };
  const newStory = async (role: NewsroomRole, name: string, body: StoryDoc) =>
    (await api(role).post('stories/', { fields: { name, type_id: typeId, doc: body, excerpt: 'A dek.' } }).expect(201)).body as { id: number; version: number };
  const connect = (role: NewsroomRole | 'member' | 'guest', storyId: number, o = origin) => {
    const c = connectLive(live.wsUrl, storyId, { origin: o, cookie: role === 'guest' ? undefined : members[role]!.cookie });
    clients.push(c);
    return c;
  };
  const storedBody = async (role: NewsroomRole, id: number) => (await api(role).get(`stories/${id}/`).expect(200)).body.fields.doc as StoryDoc;
  const paragraphs = (d: StoryDoc) => (d.content ?? []).map((n) => (n.content ?? []).map((c) => c.text ?? '').join(''));

  const upgradeStatus = (headers: Record<string, string>) => websocketUpgradeStatus(live.wsUrl, headers);

  test('the upgrade is refused to a guest (401), a member without a role and a foreign Origin (403), before any document data', async () => {
    expect(await upgradeStatus({ Origin: origin })).toBe(401);
    expect(await upgradeStatus({ Origin: origin, Cookie: members.member!.cookie })).toBe(403);
    expect(await upgradeStatus({ Origin: 'https://evil.example', Cookie: members.writer!.cookie })).toBe(403);
    expect(await upgradeStatus({ Cookie: members.writer!.cookie })).toBe(403);
    expect(await upgradeStatus({ Origin: origin, Cookie: members.writer!.cookie })).toBe(101);
  });

  test('a contributor is refused another writer’s story: no document data reaches them', async () => {
    const story = await newStory('writer', 'The writer’s own story', doc('Secret draft paragraph.'));
    const c = connect('contributor', story.id);
    await waitFor('the refusal', () => c.refused !== null, 15_000);
    expect(c.refused).toMatch(/another writer/);
    expect(c.synced).toBe(false);
    expect(bodyText(c.doc)).toEqual([]);
  });

  test('two editors see each other’s changes, and the body is written into the story', async () => {
    const story = await newStory('writer', 'Water main break on Queen', doc('First paragraph.'));
    const writer = connect('writer', story.id);
    const editor = connect('editor', story.id);
    await waitFor('both synced', () => writer.synced && editor.synced, 15_000);
    expect(bodyText(writer.doc)).toEqual(['First paragraph.']);
    appendParagraph(writer.doc, 'The writer adds this.');
    appendParagraph(editor.doc, 'The editor adds that.');
    await waitFor('both see both paragraphs', () => [writer, editor].every((c) => bodyText(c.doc).length === 3), 15_000);
    expect(bodyText(writer.doc)).toEqual(bodyText(editor.doc));
    await waitFor('the story holds the shared body', async () => paragraphs(await storedBody('writer', story.id)).length === 3, 20_000, { everyMs: 250 });
    expect(paragraphs(await storedBody('writer', story.id))).toEqual(bodyText(writer.doc));
    // Stored: a new editor loads the same document from the database.
    writer.destroy();
    editor.destroy();
    const later = connect('editor', story.id);
    await waitFor('synced', () => later.synced, 15_000);
    expect(bodyText(later.doc)).toEqual(paragraphs(await storedBody('writer', story.id)));
  });

  test('a restored revision and a body saved through the API reach the editors in the story', async () => {
    const story = await newStory('writer', 'Restore me', doc('Version one.'));
    const writer = connect('writer', story.id);
    await waitFor('synced', () => writer.synced, 15_000);
    const revisions = (await api('writer').get(`stories/${story.id}/revisions/`).expect(200)).body.results as Array<{ id: number }>;
    appendParagraph(writer.doc, 'Added live.');
    await waitFor('stored', async () => paragraphs(await storedBody('writer', story.id)).length === 2, 20_000, { everyMs: 250 });
    await api('writer').post(`stories/${story.id}/revisions/${revisions[revisions.length - 1].id}/restore/`).expect(200);
    await waitFor('the editor sees the restore', () => JSON.stringify(bodyText(writer.doc)) === JSON.stringify(['Version one.']), 15_000);
    const current = (await api('writer').get(`stories/${story.id}/`).expect(200)).body as { version: number };
    await api('writer').patch(`stories/${story.id}/`, { base_version: current.version, fields: { doc: doc('Saved through the API.') } }).expect(200);
    await waitFor('the editor sees the API save', () => JSON.stringify(bodyText(writer.doc)) === JSON.stringify(['Saved through the API.']), 15_000);
  });

  test('checks and an explicit revision (as publishing, scheduling and previews) take the body as the editors see it, not as last stored', async () => {
    const story = await newStory('writer', 'Last words', doc('The first words.'));
    const writer = connect('writer', story.id);
    await waitFor('synced', () => writer.synced, 15_000);
    appendParagraph(writer.doc, 'The last words, typed a moment ago.');
    // Acknowledged by the server; its store of the body into the story is still seconds away.
    await waitFor('acknowledged', () => !writer.provider.hasUnsyncedChanges, 15_000);
    await api('writer').get(`stories/${story.id}/checks/`).expect(200);
    expect(paragraphs(await storedBody('writer', story.id))).toEqual(['The first words.', 'The last words, typed a moment ago.']);
    appendParagraph(writer.doc, 'And one more before Save.');
    await waitFor('acknowledged', () => !writer.provider.hasUnsyncedChanges, 15_000);
    const current = (await api('writer').get(`stories/${story.id}/`).expect(200)).body as { version: number };
    await api('writer').patch(`stories/${story.id}/`, { base_version: current.version, fields: {}, explicit: true }).expect(200);
    const revisions = (await api('writer').get(`stories/${story.id}/revisions/`).expect(200)).body.results as Array<{ id: number; reason: string }>;
    const newest = (await api('writer').get(`stories/${story.id}/revisions/${revisions[0].id}/`).expect(200)).body as { fields: { doc: StoryDoc } };
    expect(paragraphs(newest.fields.doc)).toContain('And one more before Save.');
  });

  test('comments on a passage: the author’s own, resolved by another, never in the body; one under another’s name closes the socket', async () => {
    const story = await newStory('writer', 'Commented story', doc('A sentence to discuss.'));
    const writer = connect('writer', story.id);
    const editor = connect('editor', story.id);
    await waitFor('synced', () => writer.synced && editor.synced, 15_000);
    const text = (editor.doc.getXmlFragment(LIVE_BODY_FIELD).get(0) as Y.XmlElement).get(0) as Y.XmlText;
    const pos = (i: number) => Buffer.from(Y.encodeRelativePosition(Y.createRelativePositionFromTypeIndex(text, i))).toString('base64');
    const createdAt = new Date().toISOString();
    const note = (over: Partial<LiveComment> = {}): LiveComment => ({
      id: 'note-editor-0001', authorId: members.editor!.id, authorName: 'editor person', text: 'Source for this?', createdAt,
      resolved: false, resolvedBy: null, anchor: { from: pos(2), to: pos(10) }, quote: 'sentence', ...over,
    });
    editor.doc.getMap(LIVE_EDITING.commentsField).set('note-editor-0001', note());
    await waitFor('the writer sees the comment', () => writer.doc.getMap(LIVE_EDITING.commentsField).has('note-editor-0001'), 15_000);
    writer.doc.getMap(LIVE_EDITING.commentsField).set('note-editor-0001', note({ resolved: true, resolvedBy: 'writer person' }));
    await waitFor('the editor sees it resolved', () => (editor.doc.getMap(LIVE_EDITING.commentsField).get('note-editor-0001') as LiveComment | undefined)?.resolved === true, 15_000);
    // Stored with the document, never in the story's body.
    await waitFor('stored', async () => (await t.ctx.db('story_document_updates').where({ article_id: story.id }).count<{ n: string }[]>({ n: '*' }))[0].n !== '0', 15_000);
    expect(JSON.stringify(await storedBody('writer', story.id))).not.toContain('Source for this?');
    // A comment in the editor's name from the writer's client: refused, the socket closed.
    writer.doc.getMap(LIVE_EDITING.commentsField).set('note-forged-00001', note({ id: 'note-forged-00001', text: 'Forged.' }));
    await waitFor('the socket closed', () => writer.closeCodes.includes(LIVE_EDITING.closeOutsideSchema), 15_000);
    expect(editor.doc.getMap(LIVE_EDITING.commentsField).has('note-forged-00001')).toBe(false);
  });

  test('an update outside the story schema closes the socket and nothing of it is kept', async () => {
    const story = await newStory('writer', 'Schema guard', doc('Only paragraphs here.'));
    const bad = connect('writer', story.id);
    const witness = connect('editor', story.id);
    await waitFor('synced', () => bad.synced && witness.synced, 15_000);
    bad.doc.transact(() => {
      const table = new Y.XmlElement('table');
      bad.doc.getXmlFragment(LIVE_BODY_FIELD).insert(1, [table]);
    });
    await waitFor('the socket closed for the schema', () => bad.closeCodes.includes(LIVE_EDITING.closeOutsideSchema), 15_000);
    // A valid change after it still arrives: the witness sees it, and never the table.
    appendParagraph(witness.doc, 'Still editing.');
    await waitFor('stored', async () => paragraphs(await storedBody('editor', story.id)).includes('Still editing.'), 20_000, { everyMs: 250 });
    const names = witness.doc.getXmlFragment(LIVE_BODY_FIELD).toArray().map((el) => (el as Y.XmlElement).nodeName);
    expect(names).not.toContain('table');
    expect(JSON.stringify(await storedBody('editor', story.id))).not.toContain('table');
    const stored = await t.ctx.db('story_document_updates').where({ article_id: story.id }).select('update');
    const replay = new Y.Doc();
    const { state } = await t.ctx.db('story_documents').where({ article_id: story.id }).first('state');
    Y.applyUpdate(replay, new Uint8Array(state));
    for (const row of stored) Y.applyUpdate(replay, new Uint8Array(row.update));
    expect(replay.getXmlFragment(LIVE_BODY_FIELD).toArray().map((el) => (el as Y.XmlElement).nodeName)).not.toContain('table');
  });
});
