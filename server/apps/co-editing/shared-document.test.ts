import * as Y from 'yjs';
import { LIVE_BODY_FIELD } from '../../../shared/newsroom';
import { sharedDocumentFrom, SharedDocumentGuard, storyBodyOf } from './shared-document';

// The server's check of each update a client sends (live co-editing): what stays within the
// story schema passes, anything else is refused and leaves nothing behind, and the check keeps
// following the document it guards.

const actor = { id: 7, name: 'Ana Ruiz', role: 'writer' as const };
const story = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'First words.' }] }, { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'A heading' }] }] } as never;

/** A server document, its guard, and a client holding the same state whose next update is captured. */
function setUp() {
  const server = sharedDocumentFrom(story);
  const guard = new SharedDocumentGuard(server);
  const client = new Y.Doc();
  Y.applyUpdate(client, Y.encodeStateAsUpdate(server));
  const body = client.getXmlFragment(LIVE_BODY_FIELD);
  const edit = (change: () => void): Uint8Array => {
    let update: Uint8Array | null = null;
    const take = (u: Uint8Array) => void (update = update ? Y.mergeUpdates([update, u]) : u);
    client.on('update', take);
    change();
    client.off('update', take);
    return update!;
  };
  const firstText = () => (body.get(0) as Y.XmlElement).get(0) as Y.XmlText;
  return { server, guard, client, body, edit, firstText };
}

test('a keystroke, a new paragraph and a bold word pass, and the server document takes them', () => {
  const { server, guard, body, edit, firstText } = setUp();
  const key = edit(() => firstText().insert(5, '!'));
  expect(guard.refused(key, actor)).toBeNull();
  Y.applyUpdate(server, key);
  const para = edit(() => {
    const p = new Y.XmlElement('paragraph');
    p.insert(0, [new Y.XmlText('More.')]);
    body.insert(2, [p]);
  });
  expect(guard.refused(para, actor)).toBeNull();
  Y.applyUpdate(server, para);
  const bold = edit(() => firstText().format(0, 5, { bold: {} }));
  expect(guard.refused(bold, actor)).toBeNull();
  Y.applyUpdate(server, bold);
  const body2 = storyBodyOf(server);
  expect('doc' in body2 && JSON.stringify(body2.doc)).toContain('More.');
});

test.each([
  ['a node outside the schema', (s: ReturnType<typeof setUp>) => s.body.insert(0, [new Y.XmlElement('table')]), /Unknown node “table”/],
  ['a mark outside the schema', (s: ReturnType<typeof setUp>) => s.firstText().format(0, 3, { strike: {} }), /Unknown mark “strike”/],
  ['an attribute outside the schema', (s: ReturnType<typeof setUp>) => (s.body.get(0) as Y.XmlElement).setAttribute('onclick', 'x'), /Unknown attribute “onclick”/],
  ['a heading level the story does not use', (s: ReturnType<typeof setUp>) => (s.body.get(1) as Y.XmlElement).setAttribute('level', 7 as never), /heading|level/i],
  ['text straight in the body', (s: ReturnType<typeof setUp>) => s.body.insert(0, [new Y.XmlText('loose')]), /./],
  ['a list item outside a list', (s: ReturnType<typeof setUp>) => s.body.insert(0, [new Y.XmlElement('listItem')]), /schema|listItem/i],
  ['a part beside the body and the comments', (s: ReturnType<typeof setUp>) => s.client.getMap('scripts').set('x', 1), /Unknown part “scripts”/],
  ['every block deleted', (s: ReturnType<typeof setUp>) => s.body.delete(0, s.body.length), /no block/],
])('%s is refused, and nothing of it is kept', (_what, change, reason) => {
  const s = setUp();
  const update = s.edit(() => change(s));
  expect(s.guard.refused(update, actor)).toMatch(reason);
  // The guard's copy was rebuilt: a valid edit made on the server's state still passes.
  const fresh = new Y.Doc();
  Y.applyUpdate(fresh, Y.encodeStateAsUpdate(s.server));
  let key: Uint8Array | null = null;
  fresh.on('update', (u: Uint8Array) => void (key = u));
  ((fresh.getXmlFragment(LIVE_BODY_FIELD).get(0) as Y.XmlElement).get(0) as Y.XmlText).insert(0, 'Now ');
  expect(s.guard.refused(key!, actor)).toBeNull();
});

test('the guard follows changes the document takes from elsewhere (another process, a restore)', () => {
  const { server, guard, body } = setUp();
  // Another editor's paragraph reaches the server document without passing this guard.
  const other = new Y.Doc();
  Y.applyUpdate(other, Y.encodeStateAsUpdate(server));
  other.on('update', (u: Uint8Array) => Y.applyUpdate(server, u));
  const p = new Y.XmlElement('paragraph');
  p.insert(0, [new Y.XmlText('From elsewhere.')]);
  other.getXmlFragment(LIVE_BODY_FIELD).insert(0, [p]);
  // A client edit inside that paragraph depends on it: the guard has it, so the edit is checked and passes.
  const client = new Y.Doc();
  Y.applyUpdate(client, Y.encodeStateAsUpdate(server));
  let update: Uint8Array | null = null;
  client.on('update', (u: Uint8Array) => void (update = u));
  ((client.getXmlFragment(LIVE_BODY_FIELD).get(0) as Y.XmlElement).get(0) as Y.XmlText).format(0, 4, { strike: {} });
  expect(guard.refused(update!, actor)).toMatch(/Unknown mark “strike”/);
  // This client's own state (not the server's) still has the two first blocks only.
  expect(body.length).toBe(2);
});
