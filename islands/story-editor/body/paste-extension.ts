import { Extension } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { insertBlocks } from './insert-block';
import { cleanPastedHtml } from './paste-cleanup';
import { parseYoutubeUrl } from './youtube-url';

// Paste: Google Docs and Word HTML cleaned first (paste-cleanup.ts); a YouTube address pasted
// on its own becomes a video block. Pictures from other sites are taken out and reported.

export interface StoryPasteOptions {
  /** Pictures were taken out of a paste; `urls` are those that could be fetched. */
  onDroppedImages: (urls: string[], count: number) => void;
}

export const StoryPaste = Extension.create<StoryPasteOptions>({
  name: 'storyPaste',
  addOptions() {
    return { onDroppedImages: () => undefined };
  },
  addProseMirrorPlugins() {
    const { options, editor } = this;
    return [
      new Plugin({
        key: new PluginKey('storyPaste'),
        props: {
          transformPastedHTML(html) {
            const cleaned = cleanPastedHtml(html);
            if (cleaned.droppedImages) options.onDroppedImages(cleaned.foreignImages, cleaned.droppedImages);
            return cleaned.html;
          },
          handlePaste(_view, event) {
            const text = event.clipboardData?.getData('text/plain')?.trim() ?? '';
            if (!text || /\s/.test(text)) return false;
            const video = parseYoutubeUrl(text);
            if (!video) return false;
            return insertBlocks(editor, { type: 'youtube', attrs: { ...video, caption: '' } });
          },
        },
      }),
    ];
  },
});
