/// <reference types="jest" />
import { TextSelection } from '@tiptap/pm/state';
import { EditorView } from '@tiptap/pm/view';
import { prosemirrorJSONToYXmlFragment } from 'y-prosemirror';
import { Awareness } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { liveCommentError, type StoryDoc } from '../../../shared/newsroom';
import { storySchema } from '../../../shared/story-pm-schema';
import { createBodyView, rebindBody } from '../body/view';
import { liveBinding } from './binding';
import { commentHighlights, commentHighlightsKey } from './comment-highlights';
import { COMMENTS_FIELD, createComment, mayDelete, newCommentId, orderComments, withResolution, type CommentMember, type LiveComment } from './comment-model';
import { commentRanges, LiveComments } from './comments';
import { BODY_FRAGMENT } from './shared-state';

// Comments on a passage (issue 42) without a server: the objects the map holds (made,
// resolved, reopened, who may delete), and where a comment's passage is in the body after
// others, and this writer, type before it; a resolved or deleted one is not highlighted.

const ANA = { id: 3, name: 'Ana Ruiz', role: 'editor' as const };
const BEN = { id: 7, name: 'Ben Okafor', role: 'writer' as const };
const CAM = { id: 9, name: 'Cam Leblanc', role: 'contributor' as const };
const AT = { anchor: { from: 'AAE=', to: 'AAI=' }, quote: 'King Street' };

const body = (...paragraphs: string[]): StoryDoc => ({ type: 'doc', content: paragraphs.map((p) => ({ type: 'paragraph', content: [{ type: 'text', text: p }] })) });

/** Two clients' documents that pass every update to each other (the server's relay, at once). */
function twoDocs(json: StoryDoc): [Y.Doc, Y.Doc] {
  const a = new Y.Doc();
  prosemirrorJSONToYXmlFragment(storySchema, json, a.getXmlFragment(BODY_FRAGMENT));
  const b = new Y.Doc();
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
  a.on('update', (u: Uint8Array, origin: unknown) => origin !== 'relay' && Y.applyUpdate(b, u, 'relay'));
  b.on('update', (u: Uint8Array, origin: unknown) => origin !== 'relay' && Y.applyUpdate(a, u, 'relay'));
  return [a, b];
}

/** A body view bound to `doc` as the live editor binds it, with the comments' highlights. */
function boundView(doc: Y.Doc, member: CommentMember, open = jest.fn()): { view: EditorView; comments: LiveComments; ask: jest.Mock; open: jest.Mock } {
  const place = document.createElement('div');
  document.body.append(place);
  const paste = { onDroppedImages: () => undefined };
  const view = createBodyView(place, { doc: body(''), nodeViews: {}, paste, onDocChange: () => undefined, onTransaction: () => undefined });
  const binding = liveBinding(doc.getXmlFragment(BODY_FRAGMENT), new Awareness(doc));
  const comments = new LiveComments(doc, member);
  const ask = jest.fn();
  binding.plugins.push(commentHighlights(comments, { open, ask }));
  rebindBody(view, binding.doc, paste, binding);
  return { view, comments, ask, open };
}

/** The text each range covers in the view. */
const covered = (view: EditorView, ranges: Array<{ from: number; to: number }>) => ranges.map((r) => view.state.doc.textBetween(r.from, r.to));

/** The highlights the body draws now: their text and title. */
function highlighted(view: EditorView): Array<{ text: string; title: string }> {
  const set = commentHighlightsKey.getState(view.state)!;
  return set.find().map((d) => ({ text: view.state.doc.textBetween(d.from, d.to), title: (d as unknown as { type: { attrs: { title: string } } }).type.attrs.title }));
}

/** Selects the first occurrence of `text` in the view. */
function select(view: EditorView, text: string): void {
  let at = -1;
  view.state.doc.descendants((node, pos) => {
    if (at < 0 && node.isText && node.text!.includes(text)) at = pos + node.text!.indexOf(text);
  });
  if (at < 0) throw new Error(`No “${text}” in the body`);
  view.dispatch(view.state.tr.setSelection(TextSelection.create(view.state.doc, at, at + text.length)));
}

const flush = () => new Promise<void>((r) => queueMicrotask(r));

afterEach(() => {
  document.body.innerHTML = '';
});

describe('a comment as the map holds it', () => {
  test('made by the member, open, with an id the server takes', () => {
    const c = createComment(ANA, '  Source for this?  ', AT, new Date('2026-11-30T14:00:00Z'));
    expect(c).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{10,40}$/), authorId: 3, authorName: 'Ana Ruiz', text: 'Source for this?', createdAt: '2026-11-30T14:00:00.000Z',
      resolved: false, resolvedBy: null, anchor: AT.anchor, quote: 'King Street',
    });
    expect(liveCommentError(c, c.id)).toBeNull();
    expect(newCommentId()).not.toBe(newCommentId());
    expect(createComment(ANA, 'x'.repeat(2500), { ...AT, quote: 'q'.repeat(400) })).toMatchObject({ text: 'x'.repeat(2000), quote: 'q'.repeat(300) });
  });

  test('resolved and reopened: only the resolution changes', () => {
    const c = createComment(ANA, 'Source?', AT);
    const done = withResolution(c, 'Ben Okafor');
    expect(done).toEqual({ ...c, resolved: true, resolvedBy: 'Ben Okafor' });
    expect(withResolution(done, null)).toEqual(c);
  });

  test('deleted by its author or an editor, not by another writer', () => {
    const bens = createComment(BEN, 'Mine', AT);
    expect(mayDelete(bens, BEN)).toBe(true);
    expect(mayDelete(bens, ANA)).toBe(true);
    expect(mayDelete(bens, CAM)).toBe(false);
    expect(mayDelete(createComment(ANA, 'Hers', AT), BEN)).toBe(false);
  });

  test('listed open first, each group oldest first', () => {
    const at = (text: string, iso: string, resolved = false): LiveComment => ({ ...createComment(ANA, text, AT, new Date(iso)), resolved });
    const list = [at('late open', '2026-11-30T12:00:00Z'), at('early resolved', '2026-11-30T09:00:00Z', true), at('early open', '2026-11-30T10:00:00Z')];
    expect(orderComments(list).map((c) => c.text)).toEqual(['early open', 'late open', 'early resolved']);
  });
});

describe('comments in the shared document', () => {
  test('one client adds, resolves, edits and deletes; the other sees each change; a bad value is left out', () => {
    const [a, b] = twoDocs(body('The 504 leaves King Street.'));
    const anas = new LiveComments(a, ANA);
    const bens = new LiveComments(b, BEN);
    const seen = jest.fn();
    bens.subscribe(seen);
    const c = anas.add('Which weekend?', AT);
    expect(bens.getSnapshot()).toEqual([c]);
    expect(seen).toHaveBeenCalledTimes(1);

    bens.resolve(c.id, true);
    expect(anas.get(c.id)).toEqual({ ...c, resolved: true, resolvedBy: 'Ben Okafor' });
    bens.resolve(c.id, false);
    expect(anas.get(c.id)).toEqual(c);

    // Only its author rewrites it: Ben's edit sends nothing, Ana's reaches Ben.
    bens.edit(c.id, 'Ben’s words');
    expect([bens.mayEdit(c), anas.mayEdit(c), anas.get(c.id)?.text]).toEqual([false, true, 'Which weekend?']);
    anas.edit(c.id, 'Which weekend in May?');
    expect(bens.get(c.id)).toEqual({ ...c, text: 'Which weekend in May?' });
    anas.edit(c.id, 'Which weekend?');

    // Ben may not delete Ana's comment: nothing is sent.
    bens.remove(c.id);
    expect(anas.getSnapshot()).toHaveLength(1);
    anas.remove(c.id);
    expect(bens.getSnapshot()).toEqual([]);

    b.getMap(COMMENTS_FIELD).set('not-a-comment', { id: 'other', text: 1 });
    expect(anas.getSnapshot()).toEqual([]);
  });

  test('the passage is found after text typed before it, by another writer and by this one', async () => {
    const [a, b] = twoDocs(body('Road closures this weekend.', 'The 504 leaves King Street on Saturday.'));
    const ana = boundView(a, ANA);
    const ben = boundView(b, BEN);
    select(ana.view, 'King Street');
    const at = ana.comments.anchor(ana.view.state)!;
    expect(at.quote).toBe('King Street');
    const c = ana.comments.add('Which blocks?', at);
    // As the server checks it.
    expect(liveCommentError(a.getMap(COMMENTS_FIELD).get(c.id), c.id)).toBeNull();
    await flush();
    expect(covered(ben.view, commentRanges(ben.view.state, ben.comments.getSnapshot()))).toEqual(['King Street']);
    expect(highlighted(ben.view)).toEqual([{ text: 'King Street', title: 'Comment by Ana Ruiz: Which blocks?' }]);

    // Ben types before the passage: in its paragraph, and a paragraph above it.
    ben.view.dispatch(ben.view.state.tr.insertText('UPDATE: ', 1 + 'Road closures this weekend.'.length + 2));
    ben.view.dispatch(ben.view.state.tr.insert(0, storySchema.node('paragraph', null, [storySchema.text('A new lede.')])));
    await flush();
    expect(ben.view.state.doc.textContent).toContain('UPDATE: The 504 leaves King Street');
    // Ben's own highlight follows his typing; Ana's is read again from the positions.
    expect(highlighted(ben.view).map((h) => h.text)).toEqual(['King Street']);
    expect(highlighted(ana.view).map((h) => h.text)).toEqual(['King Street']);
    expect(covered(ana.view, commentRanges(ana.view.state, ana.comments.getSnapshot()))).toEqual(['King Street']);
    expect(covered(ben.view, commentRanges(ben.view.state, ben.comments.getSnapshot()))).toEqual(['King Street']);

    // Resolved: no highlight; reopened: back.
    ben.comments.resolve(c.id, true);
    await flush();
    expect(highlighted(ana.view)).toEqual([]);
    expect(highlighted(ben.view)).toEqual([]);
    ana.comments.resolve(c.id, false);
    expect(highlighted(ben.view).map((h) => h.text)).toEqual(['King Street']);

    // The passage deleted: nothing to highlight.
    const text = ana.view.state.doc.textContent;
    expect(text).toContain('King Street');
    let from = -1;
    ana.view.state.doc.descendants((n, pos) => {
      if (from < 0 && n.isText && n.text!.includes('King Street')) from = pos + n.text!.indexOf('King Street');
    });
    ana.view.dispatch(ana.view.state.tr.delete(from - 1, from + 'King Street'.length + 1));
    await flush();
    expect(commentRanges(ben.view.state, ben.comments.getSnapshot())).toEqual([]);
    expect(highlighted(ben.view)).toEqual([]);
  });

  test('a click on a highlight opens its comment; Mod-Alt-m asks for one; nothing selected, no passage', () => {
    const [a] = twoDocs(body('The 504 leaves King Street.'));
    const ana = boundView(a, ANA);
    expect(ana.comments.anchor(ana.view.state)).toBeNull();
    select(ana.view, 'King Street');
    const c = ana.comments.add('Which blocks?', ana.comments.anchor(ana.view.state)!);
    const mark = ana.view.dom.querySelector('mark.story-comment-mark')!;
    expect(mark.textContent).toBe('King Street');
    expect(mark.getAttribute('title')).toBe('Comment by Ana Ruiz: Which blocks?');
    const pos = ana.view.posAtDOM(mark.firstChild!, 3);
    ana.view.someProp('handleClick', (f) => f(ana.view, pos, new MouseEvent('click')));
    expect(ana.open).toHaveBeenCalledWith(c.id);
    ana.view.dom.dispatchEvent(new KeyboardEvent('keydown', { key: 'm', code: 'KeyM', ctrlKey: true, altKey: true, bubbles: true }));
    expect(ana.ask).toHaveBeenCalledTimes(1);
  });
});
