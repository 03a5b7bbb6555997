/// <reference types="jest" />
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import type { VideoDTO } from '../../shared/dto';
import { embedUrl, VideoThumb } from './components/VideoThumb';
import { player } from './slice';
import { createVideoGridStore } from './store';

// The video grid's rules (spec 2 §4): a thumbnail toggles to the embedded player on click,
// and a player stops (goes back to its thumbnail) when another becomes active.

const video = (id: number, title: string): VideoDTO => ({
  id,
  title,
  image_url: `https://i.ytimg.com/vi/code${id}/hqdefault.jpg`,
  share_url: `/videos/v-${id}/`,
  date_published: '2026-01-01T00:00:00.000Z',
  youtube_code: `code${id}`,
  category: null,
});

function renderGrid() {
  const store = createVideoGridStore([video(1, 'Harbourfront'), video(2, 'Ferry ride')]);
  render(
    <Provider store={store}>
      <VideoThumb videoId={1} eager />
      <VideoThumb videoId={2} />
    </Provider>,
  );
  return store;
}

describe('video grid', () => {
  test('starting one video stops the one playing; an unknown id changes nothing', () => {
    const store = createVideoGridStore([video(1, 'a'), video(2, 'b')]);
    store.dispatch(player.played(1));
    expect(store.getState().player.playingId).toBe(1);
    store.dispatch(player.played(2));
    expect(store.getState().player.playingId).toBe(2);
    store.dispatch(player.played(99));
    expect(store.getState().player.playingId).toBe(2);
    store.dispatch(player.stopped());
    expect(store.getState().player.playingId).toBeNull();
  });

  test('a thumbnail becomes the youtube-nocookie player, focused; playing another puts the first back', () => {
    renderGrid();
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Play Harbourfront' }));
    const first = screen.getByTitle('Harbourfront (video player)');
    expect(first.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/code1?autoplay=1&rel=0');
    expect(document.activeElement).toBe(first);
    expect(screen.queryByRole('button', { name: 'Play Harbourfront' })).toBeNull();

    act(() => fireEvent.click(screen.getByRole('button', { name: 'Play Ferry ride' })));
    expect(screen.queryByTitle('Harbourfront (video player)')).toBeNull();
    expect(screen.getByRole('button', { name: 'Play Harbourfront' })).toBeTruthy();
    expect(screen.getByTitle('Ferry ride (video player)')).toBeTruthy();
    expect(document.querySelectorAll('iframe')).toHaveLength(1);
  });

  test('the embed URL escapes the code', () => {
    expect(embedUrl('a/b?c')).toBe('https://www.youtube-nocookie.com/embed/a%2Fb%3Fc?autoplay=1&rel=0');
  });
});
