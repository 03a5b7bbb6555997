/// <reference types="jest" />
import { Editor } from '@tiptap/core';
import { storyDocError, type StoryDoc, type StoryNode } from '../../shared/newsroom';
import { StoryPaste } from './body/paste-extension';
import { sanitizeStoryDoc } from './body/sanitize-doc';
import { storySchemaExtensions } from './body/schema-extensions';
import { parseYoutubeUrl } from './body/youtube-url';

// The body editor's JSON against the shared schema: every block the toolbar makes, and what
// a paste from Google Docs or Word becomes.

function makeEditor(onDroppedImages = jest.fn()) {
  const element = document.createElement('div');
  document.body.append(element);
  const editor = new Editor({ element, extensions: [...storySchemaExtensions(), StoryPaste.configure({ onDroppedImages })] });
  return { editor, onDroppedImages };
}

// jsdom has no ClipboardEvent, which ProseMirror's pasteHTML makes.
if (typeof globalThis.ClipboardEvent === 'undefined') {
  Object.assign(globalThis, { ClipboardEvent: class extends Event { clipboardData = null; } });
}

const types = (nodes: StoryNode[] | undefined): string[] => (nodes ?? []).map((n) => n.type);

describe('story body schema', () => {
  test('a document with every block, made through the editor, passes storyDocError', () => {
    const { editor } = makeEditor();
    const c = () => editor.chain().focus('end');
    c().insertContent('<h2>Heading two</h2><h3>Heading three</h3>').run();
    c().insertContent({ type: 'paragraph', content: [{ type: 'text', text: 'Bold', marks: [{ type: 'bold' }] }, { type: 'text', text: ' italic ', marks: [{ type: 'italic' }] }] }).run();
    c().insertContent('<p>A <a href="https://example.com/x" class="evil" target="_self">link</a> and a line<br>break</p>').run();
    c().setTextSelection(editor.state.doc.content.size - 2).run();
    editor.commands.insertContentAt(editor.state.doc.content.size, '<p>site link</p>');
    editor.commands.setTextSelection({ from: editor.state.doc.content.size - 10, to: editor.state.doc.content.size - 1 });
    editor.commands.setLink({ href: '/food/2026/11/a-story/' });
    c().insertContent('<ul><li><p>one</p></li><li><p>two</p></li></ul><ol start="3"><li><p>three</p></li></ol><blockquote><p>quote</p></blockquote><hr>').run();
    c().insertContent([
      { type: 'image', attrs: { key: 'uploads/m1/a.jpg', alt: 'A patio', credit: 'Ana Ruiz', caption: 'On King St' } },
      { type: 'gallery', attrs: { items: [{ key: 'uploads/m1/b.jpg', alt: 'b', credit: 'c', caption: '' }, { key: 'uploads/m1/c.jpg', alt: '', credit: '', caption: 'x' }] } },
      { type: 'youtube', attrs: { ...parseYoutubeUrl('https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1m5s')!, caption: 'A video' } },
      { type: 'liveCard', attrs: { kind: 'place', id: 42, label: 'Bar Raval' } },
      { type: 'paragraph' },
    ]).run();
    const doc = editor.getJSON() as StoryDoc;
    expect(types(doc.content)).toEqual(expect.arrayContaining(['heading', 'paragraph', 'bulletList', 'orderedList', 'blockquote', 'horizontalRule', 'image', 'gallery', 'youtube', 'liveCard']));
    const json = JSON.stringify(doc);
    expect(json).toContain('"hardBreak"');
    expect(json).not.toContain('textAlign');
    expect(storyDocError(doc)).toBeNull();
    expect(sanitizeStoryDoc(doc)).toEqual(doc);
    const links = JSON.stringify(doc).match(/"type":"link","attrs":\{[^}]*\}/g) ?? [];
    expect(links.length).toBeGreaterThanOrEqual(2);
    for (const l of links) {
      const attrs = JSON.parse(l.slice(l.indexOf('{')).replace(/$/, '')) as Record<string, unknown>;
      expect(Object.keys(attrs).every((k) => ['href', 'target', 'rel', 'class', 'title'].includes(k))).toBe(true);
      expect(attrs.class).toBeNull();
    }
    const youtube = doc.content.find((n) => n.type === 'youtube')!;
    expect(youtube.attrs).toEqual({ videoId: 'dQw4w9WgXcQ', start: 65, caption: 'A video' });
    editor.destroy();
  });

  test('strike, code, underline and code blocks are not in the schema', () => {
    const { editor } = makeEditor();
    expect(Object.keys(editor.schema.marks).sort()).toEqual(['bold', 'italic', 'link']);
    expect(Object.keys(editor.schema.nodes).sort()).toEqual(['blockquote', 'bulletList', 'doc', 'gallery', 'hardBreak', 'heading', 'horizontalRule', 'image', 'listItem', 'liveCard', 'orderedList', 'paragraph', 'text', 'youtube']);
    editor.destroy();
  });

  test('a paste from Google Docs keeps headings, lists, links, bold and italic, and is not all bold', () => {
    const { editor } = makeEditor();
    const html = `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1234abcd-7fff-1234-5678-abcdef012345"><h1 dir="ltr" style="line-height:1.38;"><span style="font-size:20pt;font-family:Arial;font-weight:400;">The title</span></h1><p dir="ltr" style="line-height:1.38;margin-top:0pt;"><span style="font-size:11pt;font-weight:400;">Plain, </span><span style="font-size:11pt;font-weight:700;">bold</span><span style="font-size:11pt;font-weight:400;">, </span><span style="font-size:11pt;font-style:italic;font-weight:400;">italic</span><span style="font-weight:400;"> and </span><a href="https://www.blogto.com/" style="text-decoration:none;"><span style="color:#1155cc;text-decoration:underline;">a link</span></a><span style="text-decoration:line-through;"> struck</span></p><h2 dir="ltr"><span style="font-size:16pt;">Section</span></h2><ul style="margin-top:0;"><li dir="ltr" style="list-style-type:disc;" aria-level="1"><p dir="ltr" role="presentation"><span>First</span></p></li><li dir="ltr" aria-level="1"><p dir="ltr" role="presentation"><span>Second</span></p></li></ul><ol style="margin-top:0;"><li dir="ltr" style="list-style-type:lower-alpha;" aria-level="1"><p dir="ltr" role="presentation"><span>Alpha</span></p></li></ol><p><img src="https://lh7-us.googleusercontent.com/abc" width="200"></p></b>`;
    editor.view.pasteHTML(html);
    const doc = editor.getJSON() as StoryDoc;
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
    editor.destroy();
  });

  test('a paste from Word makes real lists and drops its markup; foreign pictures are reported', () => {
    const { editor, onDroppedImages } = makeEditor();
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
    editor.view.pasteHTML(html);
    const doc = editor.getJSON() as StoryDoc;
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
    editor.destroy();
  });

  test('a YouTube address pasted alone becomes a video block', () => {
    const { editor } = makeEditor();
    const event = { clipboardData: { getData: (t: string) => (t === 'text/plain' ? 'https://youtu.be/dQw4w9WgXcQ?t=30' : '') } } as unknown as ClipboardEvent;
    const handled = editor.view.someProp('handlePaste', (f) => f(editor.view, event, editor.state.doc.slice(0, 0)));
    expect(handled).toBe(true);
    const video = (editor.getJSON() as StoryDoc).content.find((n) => n.type === 'youtube');
    expect(video?.attrs).toEqual({ videoId: 'dQw4w9WgXcQ', start: 30, caption: '' });
    expect(parseYoutubeUrl('https://example.com/watch?v=dQw4w9WgXcQ')).toBeNull();
    expect(parseYoutubeUrl('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=12')).toEqual({ videoId: 'dQw4w9WgXcQ', start: 12 });
    editor.destroy();
  });
});
