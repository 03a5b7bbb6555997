import type { Extensions } from '@tiptap/core';
import { ReactNodeViewRenderer } from '@tiptap/react';
import { GalleryNodeView, ImageNodeView, LiveCardNodeView, YoutubeNodeView } from '../components/NodeViews';
import { StoryGallery, StoryImage, StoryLiveCard, StoryYoutube } from './nodes';
import { StoryPaste, type StoryPasteOptions } from './paste-extension';
import { storySchemaExtensions } from './schema-extensions';

// The schema's extensions with the React node views and the paste handling: the editor's.

export function storyEditorExtensions(paste: StoryPasteOptions): Extensions {
  const views: Record<string, Extensions[number]> = {
    image: StoryImage.extend({ addNodeView: () => ReactNodeViewRenderer(ImageNodeView) }),
    gallery: StoryGallery.extend({ addNodeView: () => ReactNodeViewRenderer(GalleryNodeView) }),
    youtube: StoryYoutube.extend({ addNodeView: () => ReactNodeViewRenderer(YoutubeNodeView) }),
    liveCard: StoryLiveCard.extend({ addNodeView: () => ReactNodeViewRenderer(LiveCardNodeView) }),
  };
  return [...storySchemaExtensions().map((e) => views[e.name] ?? e), StoryPaste.configure(paste)];
}
