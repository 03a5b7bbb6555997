/// <reference types="jest" />
import { TextSelection, type Command } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import { storyDocError, type StoryDoc, type StoryNode } from '../../shared/newsroom';
import { hardBreak, setLink, toggleBlockquote, toggleBold, toggleHeading, toggleItalic, toggleList, toolbarStateOf, unsetLink } from './body/commands';
import { insertBlocks } from './body/insert-block';
import { sanitizeStoryDoc } from './body/sanitize-doc';
import { storySchema } from '../../shared/story-pm-schema';
import { createBodyView, docFrom } from './body/view';
import { parseYoutubeUrl } from './body/youtube-url';

// The body editor's JSON against the shared schema: every block the toolbar and the keys
// make, what a paste from Google Docs or Word becomes, and the JSON stored before the editor
// left TipTap read and written unchanged.

function makeEditor(doc: StoryDoc = { type: 'doc', content: [{ type: 'paragraph' }] }, onDroppedImages = jest.fn()) {
  const element = document.createElement('div');
  document.body.append(element);
  const onDocChange = jest.fn();
  const view = createBodyView(element, { doc, nodeViews: {}, paste: { onDroppedImages }, onDocChange, onTransaction: () => undefined });
  return { view, onDroppedImages, onDocChange };
}

const json = (view: EditorView) => view.state.doc.toJSON() as StoryDoc;
const run = (view: EditorView, command: Command) => expect(command(view.state, view.dispatch, view)).toBe(true);
/** Types as the browser would: each character through the input rules, else inserted. */
function type(view: EditorView, text: string) {
  for (const ch of text) {
    const { from, to } = view.state.selection;
    const handled = view.someProp('handleTextInput', (f) => f(view, from, to, ch, () => view.state.tr.insertText(ch, from, to)));
    if (!handled) view.dispatch(view.state.tr.insertText(ch, from, to));
  }
}
function press(view: EditorView, key: string, mods: { shiftKey?: boolean; ctrlKey?: boolean } = {}) {
  const handled = view.someProp('handleKeyDown', (f) => f(view, new KeyboardEvent('keydown', { key, ...mods })));
  expect(handled).toBe(true);
}
/** Selects the last occurrence of `text` in the document. */
function select(view: EditorView, text: string) {
  let at = -1;
  view.state.doc.descendants((n, pos) => {
    if (n.isText && n.text!.includes(text)) at = pos + n.text!.lastIndexOf(text);
  });
  view.dispatch(view.state.tr.setSelection(TextSelection.create(view.state.doc, at, at + text.length)));
}
/** The caret at the end of the block it is in. */
const endOfBlock = (view: EditorView) => view.dispatch(view.state.tr.setSelection(TextSelection.create(view.state.doc, view.state.selection.$to.end())));

// jsdom has no ClipboardEvent, which ProseMirror's pasteHTML makes.
if (typeof globalThis.ClipboardEvent === 'undefined') {
  Object.assign(globalThis, { ClipboardEvent: class extends Event { clipboardData = null; } });
}

const types = (nodes: StoryNode[] | undefined): string[] => (nodes ?? []).map((n) => n.type);

describe('story body schema', () => {
  test('a document with every block, made through the toolbar’s commands and the keys, passes storyDocError', () => {
    const { view, onDocChange } = makeEditor();
    run(view, toggleHeading(2));
    type(view, 'Heading two');
    press(view, 'Enter');
    run(view, toggleHeading(3));
    type(view, 'Heading three');
    press(view, 'Enter');
    run(view, toggleBold);
    type(view, 'Bold');
    run(view, toggleBold);
    run(view, toggleItalic);
    type(view, ' italic ');
    run(view, toggleItalic);
    press(view, 'Enter');
    type(view, 'A link and a line');
    press(view, 'Enter', { shiftKey: true });
    type(view, 'break');
    select(view, 'link');
    run(view, setLink('https://example.com/x'));
    endOfBlock(view);
    press(view, 'Enter');
    type(view, 'site link');
    select(view, 'site link');
    run(view, setLink('/food/2026/11/a-story/'));
    expect(setLink('javascript:alert(1)')(view.state, view.dispatch)).toBe(false);
    endOfBlock(view);
    press(view, 'Enter');
    run(view, toggleList(storySchema.nodes.bulletList));
    type(view, 'one');
    press(view, 'Enter');
    type(view, 'two');
    press(view, 'Enter');
    press(view, 'Enter');
    run(view, toggleList(storySchema.nodes.orderedList));
    type(view, 'three');
    press(view, 'Enter');
    press(view, 'Enter');
    run(view, toggleBlockquote);
    type(view, 'quote');
    press(view, 'Enter');
    press(view, 'Enter');
    insertBlocks(view, { type: 'horizontalRule' });
    insertBlocks(view, [
      { type: 'image', attrs: { key: 'uploads/m1/a.jpg', alt: 'A patio', credit: 'Ana Ruiz', caption: 'On King St' } },
      { type: 'gallery', attrs: { items: [{ key: 'uploads/m1/b.jpg', alt: 'b', credit: 'c', caption: '' }, { key: 'uploads/m1/c.jpg', alt: '', credit: '', caption: 'x' }] } },
      { type: 'youtube', attrs: { ...parseYoutubeUrl('https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1m5s')!, caption: 'A video' } },
      { type: 'liveCard', attrs: { kind: 'place', id: 42, label: 'Bar Raval' } },
    ]);
    const doc = json(view);
    expect(types(doc.content)).toEqual(['heading', 'heading', 'paragraph', 'paragraph', 'paragraph', 'bulletList', 'orderedList', 'blockquote', 'horizontalRule', 'image', 'gallery', 'youtube', 'liveCard', 'paragraph']);
    expect(doc.content[0]).toEqual({ type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Heading two' }] });
    expect(doc.content[2].content).toEqual([{ type: 'text', text: 'Bold', marks: [{ type: 'bold' }] }, { type: 'text', text: ' italic ', marks: [{ type: 'italic' }] }]);
    expect(doc.content[5].content!.map((li) => li.content![0].content![0].text)).toEqual(['one', 'two']);
    expect(doc.content[6]).toEqual({ type: 'orderedList', attrs: { start: 1, type: null }, content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'three' }] }] }] });
    const json_ = JSON.stringify(doc);
    expect(json_).toContain('"hardBreak"');
    expect(storyDocError(doc)).toBeNull();
    expect(sanitizeStoryDoc(doc)).toEqual(doc);
    const links = json_.match(/"type":"link","attrs":\{[^}]*\}/g) ?? [];
    expect(links.length).toBe(2);
    for (const l of links) {
      const attrs = JSON.parse(l.slice(l.indexOf('{'))) as Record<string, unknown>;
      expect(Object.keys(attrs)).toEqual(['href', 'target', 'rel', 'class', 'title']);
      expect(attrs.class).toBeNull();
    }
    const youtube = doc.content.find((n) => n.type === 'youtube')!;
    expect(youtube.attrs).toEqual({ videoId: 'dQw4w9WgXcQ', start: 65, caption: 'A video' });
    // The caret went on after the blocks, in a paragraph of its own.
    expect(view.state.selection.$from.parent.type.name).toBe('paragraph');
    expect(view.state.selection.from).toBe(view.state.doc.content.size - 1);
    expect(onDocChange).toHaveBeenCalled();
    view.destroy();
  });

  test('the Markdown-like shortcuts as one types', () => {
    const { view } = makeEditor();
    type(view, '## Title');
    press(view, 'Enter');
    type(view, '- item');
    press(view, 'Enter');
    press(view, 'Enter');
    type(view, '1. first');
    press(view, 'Enter');
    press(view, 'Enter');
    type(view, '> said');
    press(view, 'Enter');
    press(view, 'Enter');
    type(view, '---');
    type(view, 'some **strong** and *soft* words');
    const doc = json(view);
    // A paragraph is always last (it came when the quote was the last block).
    expect(types(doc.content)).toEqual(['heading', 'bulletList', 'orderedList', 'blockquote', 'horizontalRule', 'paragraph', 'paragraph']);
    expect(doc.content[0].content).toEqual([{ type: 'text', text: 'Title' }]);
    expect(doc.content[5].content).toEqual([
      { type: 'text', text: 'some ' },
      { type: 'text', text: 'strong', marks: [{ type: 'bold' }] },
      { type: 'text', text: ' and ' },
      { type: 'text', text: 'soft', marks: [{ type: 'italic' }] },
      { type: 'text', text: ' words' },
    ]);
    expect(storyDocError(doc)).toBeNull();
    view.destroy();
  });

  test('stored JSON of every block is read and written back unchanged', () => {
    const stored: StoryDoc = {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 3 }, content: [{ type: 'text', text: 'H' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'a ', marks: [{ type: 'link', attrs: { href: '/x/', target: null, rel: null, class: null, title: null } }, { type: 'bold' }] }, { type: 'hardBreak' }, { type: 'text', text: 'b', marks: [{ type: 'italic' }] }] },
        { type: 'orderedList', attrs: { start: 3, type: null }, content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'x' }] }, { type: 'bulletList', content: [{ type: 'listItem', content: [{ type: 'paragraph' }] }] }] }] },
        { type: 'blockquote', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'q' }] }] },
        { type: 'horizontalRule' },
        { type: 'image', attrs: { key: 'uploads/m1/a.jpg', alt: 'A', credit: 'C', caption: '' } },
        { type: 'gallery', attrs: { items: [{ key: 'uploads/m1/b.jpg', alt: 'b', credit: 'c', caption: '' }] } },
        { type: 'youtube', attrs: { videoId: 'dQw4w9WgXcQ', start: null, caption: '' } },
        { type: 'liveCard', attrs: { kind: 'event', id: 7, label: 'Nuit Blanche' } },
        { type: 'paragraph' },
      ],
    };
    expect(storyDocError(stored)).toBeNull();
    expect(docFrom(stored).toJSON()).toEqual(stored);
    // Copy and paste inside the editor keeps every attribute (the blocks' data-* attributes).
    const { view } = makeEditor(stored);
    const html = view.dom.innerHTML;
    const other = makeEditor();
    other.view.pasteHTML(html);
    expect(json(other.view).content.filter((n) => n.type !== 'paragraph' || n.content)).toEqual(stored.content.filter((n) => n.type !== 'paragraph' || n.content));
    // A body the schema cannot read keeps its words.
    expect(docFrom({ type: 'doc', content: [{ type: 'table', content: [{ type: 'text', text: 'kept' }] }] } as StoryDoc).toJSON()).toEqual({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'kept' }] }] });
    view.destroy();
    other.view.destroy();
  });

  test('blocks go in place of an empty paragraph, between the halves of a split one, or after a selected block', () => {
    const { view } = makeEditor({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'leftright' }] }] });
    view.dispatch(view.state.tr.setSelection(TextSelection.create(view.state.doc, 5)));
    insertBlocks(view, { type: 'horizontalRule' });
    expect(types(json(view).content)).toEqual(['paragraph', 'horizontalRule', 'paragraph']);
    expect(view.state.selection.$from.parent.textContent).toBe('right');
    view.dispatch(view.state.tr.setSelection(TextSelection.atEnd(view.state.doc)));
    insertBlocks(view, { type: 'liveCard', attrs: { kind: 'place', id: 1, label: 'A' } });
    expect(types(json(view).content)).toEqual(['paragraph', 'horizontalRule', 'paragraph', 'liveCard', 'paragraph']);
    // The caret is in the new last paragraph; a block there takes its place.
    insertBlocks(view, { type: 'liveCard', attrs: { kind: 'place', id: 2, label: 'B' } });
    expect(types(json(view).content)).toEqual(['paragraph', 'horizontalRule', 'paragraph', 'liveCard', 'liveCard', 'paragraph']);
    view.destroy();
  });

  test('the toolbar’s state, and a link changed or removed from a bare caret in it', () => {
    const { view } = makeEditor({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'see ' }, { type: 'text', text: 'the guide', marks: [{ type: 'link', attrs: { href: '/a/' } }] }, { type: 'text', text: ' now', marks: [{ type: 'bold' }] }] }] });
    expect(toolbarStateOf(view.state)).toMatchObject({ bold: false, link: false, canUndo: false });
    view.dispatch(view.state.tr.setSelection(TextSelection.create(view.state.doc, 8)));
    expect(toolbarStateOf(view.state)).toMatchObject({ link: true, href: '/a/', bold: false, h2: false, bullet: false });
    run(view, setLink('/b/'));
    expect(json(view).content[0].content![1]).toMatchObject({ text: 'the guide', marks: [{ type: 'link', attrs: { href: '/b/' } }] });
    expect(toolbarStateOf(view.state)).toMatchObject({ canUndo: true });
    view.dispatch(view.state.tr.setSelection(TextSelection.create(view.state.doc, 7)));
    run(view, unsetLink);
    expect(JSON.stringify(json(view))).not.toContain('link');
    view.dispatch(view.state.tr.setSelection(TextSelection.create(view.state.doc, 16)));
    run(view, toggleHeading(2));
    expect(toolbarStateOf(view.state)).toMatchObject({ bold: true, h2: true });
    run(view, toggleHeading(2));
    run(view, toggleList(storySchema.nodes.bulletList));
    expect(toolbarStateOf(view.state)).toMatchObject({ bold: true, h2: false, bullet: true });
    run(view, toggleList(storySchema.nodes.orderedList));
    expect(toolbarStateOf(view.state)).toMatchObject({ bullet: false, ordered: true });
    // A list item's first paragraph becomes a heading out of the list.
    run(view, toggleHeading(3));
    expect(types(json(view).content)).toEqual(['heading', 'paragraph']);
    run(view, hardBreak);
    expect(toolbarStateOf(view.state)).toMatchObject({ h3: true, bullet: false });
    view.destroy();
  });

  test('strike, code, underline and code blocks are not in the schema', () => {
    expect(Object.keys(storySchema.marks).sort()).toEqual(['bold', 'italic', 'link']);
    expect(Object.keys(storySchema.nodes).sort()).toEqual(['blockquote', 'bulletList', 'doc', 'gallery', 'hardBreak', 'heading', 'horizontalRule', 'image', 'listItem', 'liveCard', 'orderedList', 'paragraph', 'text', 'youtube']);
  });

  test('a paste from Google Docs keeps headings, lists, links, bold and italic, and is not all bold', () => {
    const { view } = makeEditor();
    const html = `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1234abcd-7fff-1234-5678-abcdef012345"><h1 dir="ltr" style="line-height:1.38;"><span style="font-size:20pt;font-family:Arial;font-weight:400;">The title</span></h1><p dir="ltr" style="line-height:1.38;margin-top:0pt;"><span style="font-size:11pt;font-weight:400;">Plain, </span><span style="font-size:11pt;font-weight:700;">bold</span><span style="font-size:11pt;font-weight:400;">, </span><span style="font-size:11pt;font-style:italic;font-weight:400;">italic</span><span style="font-weight:400;"> and </span><a href="https://www.blogto.com/" style="text-decoration:none;"><span style="color:#1155cc;text-decoration:underline;">a link</span></a><span style="text-decoration:line-through;"> struck</span></p><h2 dir="ltr"><span style="font-size:16pt;">Section</span></h2><ul style="margin-top:0;"><li dir="ltr" style="list-style-type:disc;" aria-level="1"><p dir="ltr" role="presentation"><span>First</span></p></li><li dir="ltr" aria-level="1"><p dir="ltr" role="presentation"><span>Second</span></p></li></ul><ol style="margin-top:0;"><li dir="ltr" style="list-style-type:lower-alpha;" aria-level="1"><p dir="ltr" role="presentation"><span>Alpha</span></p></li></ol><p><img src="https://lh7-us.googleusercontent.com/abc" width="200"></p></b>`;
    view.pasteHTML(html);
    const doc = json(view);
    expect(storyDocError(sanitizeStoryDoc(doc))).toBeNull();
    const content = doc.content.filter((n) => !(n.type === 'paragraph' && !n.content));
    expect(types(content)).toEqual(['heading', 'paragraph', 'heading', 'bulletList', 'orderedList']);
    expect(content[0].attrs).toMatchObject({ level: 2 });
    const para = content[1].content!;
    const marked = (text: string) => para.find((t) => t.text === text)?.marks?.map((m) => m.type) ?? [];
    expect(marked('Plain, ')).toEqual([]);
    expect(marked('bold')).toEqual(['bold']);
    expect(marked('italic')).toEqual(['italic']);
    expect(marked('a link')).toEqual(['link']);
    expect(para.find((t) => t.text === 'a link')!.marks![0].attrs).toMatchObject({ href: 'https://www.blogto.com/', class: null });
    expect(marked(' struck')).toEqual([]);
    expect(JSON.stringify(doc)).not.toContain('image');
    view.destroy();
  });

  test('a paste from Word makes real lists and drops its markup; foreign pictures are reported', () => {
    const { view, onDroppedImages } = makeEditor();
    const html = `<html xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word"><head><style>p.MsoNormal{mso-style-parent:"";}</style></head><body lang=EN-CA style='tab-interval:36.0pt'><!--StartFragment--><h1>Word heading<o:p></o:p></h1>
<p class=MsoNormal>Some <b>bold</b> and <i>italic</i> with <a href="http://example.com/page">a link</a><o:p></o:p></p>
<p class=MsoNormal><o:p>&nbsp;</o:p></p>
<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol;mso-fareast-font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp; </span></span></span><![endif]>Bullet one<o:p></o:p></p>
<p class=MsoListParagraphCxSpMiddle style='margin-left:72.0pt;mso-add-space:auto;text-indent:-18.0pt;mso-list:l0 level2 lfo1'><![if !supportLists]><span style='font-family:"Courier New"'><span style='mso-list:Ignore'>o<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span></span><![endif]>Nested<o:p></o:p></p>
<p class=MsoListParagraphCxSpLast style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='mso-list:Ignore'>·<span>&nbsp;</span></span><![endif]>Bullet two<o:p></o:p></p>
<p class=MsoNormal>Between<o:p></o:p></p>
<p class=MsoListParagraphCxSpFirst style='mso-list:l1 level1 lfo2'><![if !supportLists]><span style='mso-list:Ignore'>1.<span>&nbsp;</span></span><![endif]>Number one<o:p></o:p></p>
<p class=MsoListParagraphCxSpLast style='mso-list:l1 level1 lfo2'><![if !supportLists]><span style='mso-list:Ignore'>2.<span>&nbsp;</span></span><![endif]>Number two<o:p></o:p></p>
<p class=MsoNormal><img width=100 height=100 src="https://cdn.example.org/pic.jpg"><v:shape id="x"><v:imagedata src="file:///C:/x.png"/></v:shape><o:p></o:p></p><!--EndFragment--></body></html>`;
    view.pasteHTML(html);
    const doc = json(view);
    expect(storyDocError(sanitizeStoryDoc(doc))).toBeNull();
    const content = doc.content.filter((n) => !(n.type === 'paragraph' && !n.content));
    expect(types(content)).toEqual(['heading', 'paragraph', 'bulletList', 'paragraph', 'orderedList']);
    const bullets = content[2];
    expect(bullets.content!.length).toBe(2);
    expect(JSON.stringify(bullets)).toContain('"text":"Bullet one"');
    expect(types(bullets.content![0].content)).toEqual(['paragraph', 'bulletList']);
    expect(JSON.stringify(content[4])).toContain('"text":"Number two"');
    expect(JSON.stringify(doc)).not.toMatch(/·|Symbol|mso/);
    const para = content[1].content!;
    expect(para.find((t) => t.text === 'bold')?.marks).toEqual([{ type: 'bold' }]);
    expect(para.find((t) => t.text === 'italic')?.marks).toEqual([{ type: 'italic' }]);
    expect(onDroppedImages).toHaveBeenCalledWith(['https://cdn.example.org/pic.jpg'], 1);
    view.destroy();
  });

  test('a YouTube address pasted alone becomes a video block', () => {
    const { view } = makeEditor();
    const event = { clipboardData: { getData: (t: string) => (t === 'text/plain' ? 'https://youtu.be/dQw4w9WgXcQ?t=30' : '') } } as unknown as ClipboardEvent;
    const handled = view.someProp('handlePaste', (f) => f(view, event, view.state.doc.slice(0, 0)));
    expect(handled).toBe(true);
    const video = json(view).content.find((n) => n.type === 'youtube');
    expect(video?.attrs).toEqual({ videoId: 'dQw4w9WgXcQ', start: 30, caption: '' });
    expect(parseYoutubeUrl('https://example.com/watch?v=dQw4w9WgXcQ')).toBeNull();
    expect(parseYoutubeUrl('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=12')).toEqual({ videoId: 'dQw4w9WgXcQ', start: 12 });
    view.destroy();
  });
});
