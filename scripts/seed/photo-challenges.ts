import type { Knex } from 'knex';
import { insertBatches, insertReturningIds } from './batch';
import { IMAGE_HEIGHT, IMAGE_WIDTH, type ImagePool } from './images';
import type { MemberRef } from './members';
import type { Rng } from './random';

// Photo Challenges (server/apps/photo-challenges): one theme every three weeks, the latest two
// open, one announced for later, the rest closed, each with the entries the editors picked
// (Instagram posts with the hashtag, and members' photos).

const THEMES = [
  { title: 'Toronto after dark', hashtag: 'TOafterdark', prompt: 'The city once the sun goes down: neon on Yonge, the glow of the CN Tower, the last streetcar home.' },
  { title: 'Reflections', hashtag: 'TOreflections', prompt: 'Puddles, glass towers, the lake on a still morning: show us Toronto twice.' },
  { title: 'Patio life', hashtag: 'TOpatiolife', prompt: 'Sun, shade and a cold drink: the patios, rooftops and backyards where Toronto spends its summer.' },
  { title: 'Streetcar city', hashtag: 'TOstreetcars', prompt: 'The red rockets in every weather, from the 501 on Queen to the 504 on King.' },
  { title: 'Murals and laneways', hashtag: 'TOmurals', prompt: 'Graffiti Alley and beyond: the painted walls of your neighbourhood.' },
  { title: 'Market days', hashtag: 'TOmarkets', prompt: 'St. Lawrence, Kensington, the farmers’ markets in the parks: the people and the produce.' },
  { title: 'Fall colours', hashtag: 'TOfallcolours', prompt: 'High Park, the ravines, the Don Valley in October: Toronto at its most orange.' },
  { title: 'First snow', hashtag: 'TOfirstsnow', prompt: 'The first flakes on Nathan Phillips Square, the first toboggan run, the first slushy sidewalk.' },
  { title: 'Lake Ontario', hashtag: 'TOlakeshore', prompt: 'Beaches, boardwalks, ferries to the Island: the lake that makes the city.' },
  { title: 'Rush hour', hashtag: 'TOrushhour', prompt: 'Union Station at 8:45, the Gardiner at 5:30: the city on the move.' },
];

const INSTAGRAM_USERS = ['the6ixlens', 'queenwestwalks', 'streetcar_sam', 'lakeshorelight', 'torontofilmshooter', 'ravine.rambler', 'danforthdays', 'junction_jen', 'parkdalepix', 'eastendeye'];
const ENTRY_CAPTIONS = ['Caught this on the way home', 'Worth the early alarm', 'Five minutes after the rain', 'From the 20th floor', 'Just around the corner', 'Shot on my phone', 'Golden hour', 'Couldn’t resist'];

const DAY = 86_400_000;
const LENGTH_DAYS = 21;

export async function seedPhotoChallenges(db: Knex, opts: { rng: Rng; now: Date; members: MemberRef[]; images: ImagePool }): Promise<{ challenges: number; entries: number }> {
  const pool = [...(opts.images.neighbourhoods ?? []), ...(opts.images.events ?? []), ...(opts.images.culture ?? [])];
  if (!pool.length) return { challenges: 0, entries: 0 };
  const now = opts.now.getTime();
  // Challenge 0 is announced and starts next week; 1 and 2 are open; the rest have closed.
  const rows = THEMES.map((theme, i) => {
    const start = now + 7 * DAY - i * 14 * DAY;
    return {
      title: theme.title,
      name: theme.hashtag.toLowerCase().replace(/^to/, 'toronto-'),
      hashtag: theme.hashtag,
      description: `${theme.prompt}\n\nThe challenge runs for three weeks. Our photo editors pick their favourites as they come in, and the best one leads the gallery.`,
      image_key: opts.rng.fork(`challenge:${i}`).pick(pool),
      start_date: new Date(start),
      end_date: new Date(start + LENGTH_DAYS * DAY),
      date_published: new Date(start - 3 * DAY),
    };
  });
  const ids = await insertReturningIds(db, 'photo_challenges', rows);
  const entries: Record<string, unknown>[] = [];
  rows.forEach((row, i) => {
    const r = opts.rng.fork(`challenge-entries:${i}`);
    const started = row.start_date.getTime();
    if (started > now) return;
    const until = Math.min(row.end_date.getTime(), now);
    // The last theme closed before anyone's entry was picked: its page says so.
    const count = i === THEMES.length - 1 ? 0 : r.int(6, 30);
    for (let n = 0; n < count; n++) {
      const member = opts.members.length && r.chance(0.3) ? r.pick(opts.members) : null;
      entries.push({
        challenge_id: ids[i],
        profile_id: member?.id ?? null,
        instagram_user: member ? null : r.pick(INSTAGRAM_USERS),
        image_key: r.pick(pool),
        width: IMAGE_WIDTH,
        height: IMAGE_HEIGHT,
        title: r.pick(ENTRY_CAPTIONS),
        creation_date: new Date(started + Math.floor(r.float() * (until - started))),
      });
    }
  });
  await insertBatches(db, 'photos', entries, 1000);
  return { challenges: rows.length, entries: entries.length };
}
