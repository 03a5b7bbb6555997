import { lazy, Suspense, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { Command } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import type { GalleryItem } from '../../../shared/newsroom';
import { redo, setLink, toggleBlockquote, toggleBold, toggleHeading, toggleItalic, toggleList, undo, unsetLink } from '../body/commands';
import { insertBlocks } from '../body/insert-block';
import { storySchema } from '../../../shared/story-pm-schema';
import type { ToolbarFeed } from '../body/view';
import { useServices } from '../services';
import { onToolbarKeyDown } from './toolbar-parts';

// The body's toolbar: one button per mark and block, each named; the arrow keys move between
// them (a toolbar is one stop for Tab), as WAI-ARIA's toolbar pattern has it. Its pressed
// states come from `feed`, read after a key's frame is painted and only when they change.

type DialogName = 'link' | 'youtube' | 'card' | null;

// The dialogs load when first opened: a writer opens them later, if at all.
const LinkDialog = lazy(() => import('./InsertDialogs').then((m) => ({ default: m.LinkDialog })));
const YoutubeDialog = lazy(() => import('./InsertDialogs').then((m) => ({ default: m.YoutubeDialog })));
const LiveCardDialog = lazy(() => import('./InsertDialogs').then((m) => ({ default: m.LiveCardDialog })));

const { bulletList, orderedList } = storySchema.nodes;

export function Toolbar({ view, feed, onMessage, onComment }: { view: EditorView; feed: ToolbarFeed; onMessage: (m: string | null) => void; onComment?: () => void }) {
  const { api } = useServices();
  const [dialog, setDialog] = useState<DialogName>(null);
  const [uploading, setUploading] = useState(false);
  const imageInput = useRef<HTMLInputElement>(null);
  const galleryInput = useRef<HTMLInputElement>(null);
  const active = useSyncExternalStore(feed.subscribe, feed.get) ?? { bold: false, italic: false, h2: false, h3: false, bullet: false, ordered: false, quote: false, link: false, href: null, canUndo: false, canRedo: false };
  const run = (command: Command) => {
    command(view.state, view.dispatch, view);
    view.focus();
  };

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
    if (gallery) insertBlocks(view, { type: 'gallery', attrs: { items } });
    else insertBlocks(view, items.map((attrs) => ({ type: 'image', attrs: { ...attrs } })));
    onMessage('Add alt text and a credit to each picture.');
  };

  const button = (label: string, content: ReactNode, run: () => void, pressed?: boolean, disabled?: boolean) => (
    <button type="button" className="story-toolbar__button" aria-label={label} title={label} aria-pressed={pressed} disabled={disabled} onMouseDown={(e) => e.preventDefault()} onClick={run}>
      {content}
    </button>
  );

  return (
    <>
      <div className="story-toolbar" role="toolbar" aria-label="Body formatting" onKeyDown={onToolbarKeyDown}>
        {button('Bold', <b>B</b>, () => run(toggleBold), active.bold)}
        {button('Italic', <i>I</i>, () => run(toggleItalic), active.italic)}
        {button('Link', 'Link', () => setDialog('link'), active.link)}
        <span className="story-toolbar__sep" aria-hidden="true" />
        {button('Heading', 'H2', () => run(toggleHeading(2)), active.h2)}
        {button('Subheading', 'H3', () => run(toggleHeading(3)), active.h3)}
        {button('Bulleted list', '• List', () => run(toggleList(bulletList)), active.bullet)}
        {button('Numbered list', '1. List', () => run(toggleList(orderedList)), active.ordered)}
        {button('Quote', '“ ”', () => run(toggleBlockquote), active.quote)}
        {button('Divider', '―', () => insertBlocks(view, { type: 'horizontalRule' }))}
        <span className="story-toolbar__sep" aria-hidden="true" />
        {button('Picture', 'Picture', () => imageInput.current?.click(), undefined, uploading)}
        {button('Gallery', 'Gallery', () => galleryInput.current?.click(), undefined, uploading)}
        {button('YouTube video', 'Video', () => setDialog('youtube'))}
        {button('Live card', 'Card', () => setDialog('card'))}
        <span className="story-toolbar__sep" aria-hidden="true" />
        {button('Undo', '↶', () => run(undo), undefined, !active.canUndo)}
        {button('Redo', '↷', () => run(redo), undefined, !active.canRedo)}
        {onComment && (
          <>
            <span className="story-toolbar__sep" aria-hidden="true" />
            {/* Only while live: comments are the shared document's (live/comments.ts). */}
            <button type="button" className="story-toolbar__button" title="Comment on the selected passage (Ctrl+Alt+M)" aria-keyshortcuts="Control+Alt+M" onMouseDown={(e) => e.preventDefault()} onClick={onComment}>
              Comment
            </button>
          </>
        )}
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
            run(setLink(href));
          }}
          onRemove={() => {
            setDialog(null);
            run(unsetLink);
          }}
        />
      )}
      {dialog === 'youtube' && (
        <YoutubeDialog
          onClose={() => setDialog(null)}
          onInsert={(attrs) => {
            setDialog(null);
            insertBlocks(view, { type: 'youtube', attrs });
          }}
        />
      )}
      {dialog === 'card' && (
        <LiveCardDialog
          onClose={() => setDialog(null)}
          onInsert={(attrs) => {
            setDialog(null);
            insertBlocks(view, { type: 'liveCard', attrs });
          }}
        />
      )}
      </Suspense>
    </>
  );
}
