import { lazy, Suspense, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useEditorState, type Editor } from '@tiptap/react';
import type { GalleryItem } from '../../../shared/newsroom';
import { insertBlocks } from '../body/insert-block';
import { useServices } from '../services';

// The body's toolbar: one button per mark and block, each named; the arrow keys move between
// them (a toolbar is one stop for Tab), as WAI-ARIA's toolbar pattern has it.

type DialogName = 'link' | 'youtube' | 'card' | null;

function shallowEqual<T extends object>(a: T, b: T | null): boolean {
  if (a === b) return true;
  if (!b) return false;
  const ka = Object.keys(a) as Array<keyof T>;
  return ka.length === Object.keys(b).length && ka.every((k) => Object.is(a[k], b[k]));
}

// The dialogs load when first opened: a writer opens them later, if at all.
const LinkDialog = lazy(() => import('./InsertDialogs').then((m) => ({ default: m.LinkDialog })));
const YoutubeDialog = lazy(() => import('./InsertDialogs').then((m) => ({ default: m.YoutubeDialog })));
const LiveCardDialog = lazy(() => import('./InsertDialogs').then((m) => ({ default: m.LiveCardDialog })));

export function Toolbar({ editor, onMessage }: { editor: Editor; onMessage: (m: string | null) => void }) {
  const { api } = useServices();
  const [dialog, setDialog] = useState<DialogName>(null);
  const [uploading, setUploading] = useState(false);
  const imageInput = useRef<HTMLInputElement>(null);
  const galleryInput = useRef<HTMLInputElement>(null);
  const active = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      quote: e.isActive('blockquote'),
      link: e.isActive('link'),
      href: (e.getAttributes('link').href as string | undefined) ?? null,
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
    // React renders the toolbar again only when one of these changes, not on every key.
    equalityFn: shallowEqual,
  });
  const chain = () => editor.chain().focus();

  const upload = async (files: FileList | null, gallery: boolean) => {
    if (!files?.length) return;
    setUploading(true);
    onMessage('Uploading…');
    const items: GalleryItem[] = [];
    for (const f of Array.from(files)) {
      try {
        items.push({ key: await api.uploadImage(f), alt: '', credit: '', caption: '' });
      } catch {
        onMessage(`“${f.name}” could not be uploaded: it must be a picture (JPEG, PNG, GIF, WebP) under 10 MB.`);
      }
    }
    setUploading(false);
    if (!items.length) return;
    if (gallery) insertBlocks(editor, { type: 'gallery', attrs: { items } });
    else insertBlocks(editor, items.map((attrs) => ({ type: 'image', attrs })));
    onMessage('Add alt text and a credit to each picture.');
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) return;
    const buttons = Array.from(e.currentTarget.querySelectorAll<HTMLButtonElement>('button:not([disabled])'));
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? buttons.length - 1 : (at + (e.key === 'ArrowRight' ? 1 : -1) + buttons.length) % buttons.length;
    e.preventDefault();
    buttons[next]?.focus();
  };

  const button = (label: string, content: ReactNode, run: () => void, pressed?: boolean, disabled?: boolean) => (
    <button type="button" className="story-toolbar__button" aria-label={label} title={label} aria-pressed={pressed} disabled={disabled} onMouseDown={(e) => e.preventDefault()} onClick={run}>
      {content}
    </button>
  );

  return (
    <>
      <div className="story-toolbar" role="toolbar" aria-label="Body formatting" onKeyDown={onKeyDown}>
        {button('Bold', <b>B</b>, () => chain().toggleBold().run(), active.bold)}
        {button('Italic', <i>I</i>, () => chain().toggleItalic().run(), active.italic)}
        {button('Link', 'Link', () => setDialog('link'), active.link)}
        <span className="story-toolbar__sep" aria-hidden="true" />
        {button('Heading', 'H2', () => chain().toggleHeading({ level: 2 }).run(), active.h2)}
        {button('Subheading', 'H3', () => chain().toggleHeading({ level: 3 }).run(), active.h3)}
        {button('Bulleted list', '• List', () => chain().toggleBulletList().run(), active.bullet)}
        {button('Numbered list', '1. List', () => chain().toggleOrderedList().run(), active.ordered)}
        {button('Quote', '“ ”', () => chain().toggleBlockquote().run(), active.quote)}
        {button('Divider', '―', () => chain().setHorizontalRule().run())}
        <span className="story-toolbar__sep" aria-hidden="true" />
        {button('Picture', 'Picture', () => imageInput.current?.click(), undefined, uploading)}
        {button('Gallery', 'Gallery', () => galleryInput.current?.click(), undefined, uploading)}
        {button('YouTube video', 'Video', () => setDialog('youtube'))}
        {button('Live card', 'Card', () => setDialog('card'))}
        <span className="story-toolbar__sep" aria-hidden="true" />
        {button('Undo', '↶', () => chain().undo().run(), undefined, !active.canUndo)}
        {button('Redo', '↷', () => chain().redo().run(), undefined, !active.canRedo)}
      </div>
      <input ref={imageInput} className="visually-hidden" type="file" accept="image/*" tabIndex={-1} aria-hidden="true" onChange={(e) => void upload(e.target.files, false).then(() => (e.target.value = ''))} />
      <input ref={galleryInput} className="visually-hidden" type="file" accept="image/*" multiple tabIndex={-1} aria-hidden="true" onChange={(e) => void upload(e.target.files, true).then(() => (e.target.value = ''))} />
      <Suspense fallback={null}>
      {dialog === 'link' && (
        <LinkDialog
          current={active.href}
          onClose={() => setDialog(null)}
          onSet={(href) => {
            setDialog(null);
            const c = chain().extendMarkRange('link');
            if (editor.state.selection.empty && !active.link) c.insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] }).run();
            else c.setLink({ href }).run();
          }}
          onRemove={() => {
            setDialog(null);
            chain().extendMarkRange('link').unsetLink().run();
          }}
        />
      )}
      {dialog === 'youtube' && (
        <YoutubeDialog
          onClose={() => setDialog(null)}
          onInsert={(attrs) => {
            setDialog(null);
            insertBlocks(editor, { type: 'youtube', attrs });
          }}
        />
      )}
      {dialog === 'card' && (
        <LiveCardDialog
          onClose={() => setDialog(null)}
          onInsert={(attrs) => {
            setDialog(null);
            insertBlocks(editor, { type: 'liveCard', attrs });
          }}
        />
      )}
      </Suspense>
    </>
  );
}
