import { YOUTUBE_ID_RE } from '../../../shared/newsroom';

// A YouTube address as people paste it (watch, youtu.be, embed, shorts, the no-cookie host,
// with t= or start=) read into the video's 11-character id and its start in seconds.

function seconds(t: string | null): number | null {
  if (!t) return null;
  if (/^\d+$/.test(t)) return Number(t);
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(t);
  if (!m || !t) return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

export function parseYoutubeUrl(text: string): { videoId: string; start: number | null } | null {
  let u: URL;
  try {
    u = new URL(text.trim());
  } catch {
    return null;
  }
  const host = u.hostname.replace(/^(www|m|music)\./, '');
  let id: string | null = null;
  if (host === 'youtu.be') id = u.pathname.slice(1).split('/')[0];
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    if (u.pathname === '/watch') id = u.searchParams.get('v');
    else {
      const m = /^\/(?:embed|shorts|live|v)\/([^/?#]+)/.exec(u.pathname);
      id = m ? m[1] : null;
    }
  }
  if (!id || !YOUTUBE_ID_RE.test(id)) return null;
  const start = seconds(u.searchParams.get('t') ?? u.searchParams.get('start'));
  return { videoId: id, start: start && start > 0 ? start : null };
}
