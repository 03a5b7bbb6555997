import { useEffect, useRef } from 'react';
import { useVideoGridDispatch, useVideoGridSelector } from '../hooks';
import { player, selectIsPlaying } from '../slice';
import { youtubeEmbedUrl } from '../../../shared/urls';
import { pictureUrl } from '../../common/picture-url';

// One card's thumbnail: a button that plays the video in place (the youtube-nocookie player
// the video page embeds, which the CSP allows), focused so the keyboard controls it at once.
// When another starts, this one's player is removed, which stops it.

export const embedUrl = (youtubeCode: string) => youtubeEmbedUrl(youtubeCode, { autoplay: true });

export function VideoThumb({ videoId, eager = false }: { videoId: number; eager?: boolean }) {
  const dispatch = useVideoGridDispatch();
  const video = useVideoGridSelector((s) => s.player.videos[videoId]);
  const playing = useVideoGridSelector(selectIsPlaying(videoId));
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    if (playing) frame.current?.focus();
  }, [playing]);
  if (!video) return null;
  if (playing) {
    return (
      <div className="video-card__player">
        <iframe
          ref={frame}
          src={embedUrl(video.youtube_code)}
          title={`${video.title} (video player)`}
          width={480}
          height={270}
          allow="accelerometer; autoplay; encrypted-media; gyroscope; picture-in-picture; fullscreen"
          referrerPolicy="strict-origin-when-cross-origin"
          allowFullScreen
        />
      </div>
    );
  }
  return (
    <button type="button" className="video-card__thumb video-card__play-button" aria-label={`Play ${video.title}`} onClick={() => dispatch(player.played(videoId))}>
      {video.image_url && <img src={pictureUrl(video.image_url)} width={480} height={360} alt="" {...(eager ? { fetchPriority: 'high' as const } : { loading: 'lazy' as const, decoding: 'async' as const })} />}
      <span className="video-card__play" aria-hidden="true">
        ▶
      </span>
    </button>
  );
}
