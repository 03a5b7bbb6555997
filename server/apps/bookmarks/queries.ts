import type { Db } from '../../db';
import { whereArticleIsPublic } from '../articles/queries';
import { whereEventIsPublic } from '../events/queries';
import { whereVideoIsPublic } from '../videos/queries';

// What the bookmark kinds (*-kind.ts) read before a save: whether the object may be saved at
// `now`. A scheduled or unpublished object reads as missing, so its id does not tell it exists.

/** The article's id when it is public at `now`. */
export async function publicArticleId(db: Db, articleId: number, now: Date): Promise<{ id: number } | undefined> {
  return whereArticleIsPublic(db('articles as a').where('a.id', articleId), now).first('a.id');
}

/** Whether the event allows bookmarks, when it is public at `now`. */
export async function publicEventBookmarkable(db: Db, eventId: number, now: Date): Promise<{ can_be_bookmarked: boolean } | undefined> {
  return whereEventIsPublic(db('events as e').where('e.id', eventId), now, 'e').first('e.can_be_bookmarked');
}

/** The video's id when it is public at `now`. */
export async function publicVideoId(db: Db, videoId: number, now: Date): Promise<{ id: number } | undefined> {
  return whereVideoIsPublic(db('videos as v').where('v.id', videoId), now, 'v').first('v.id');
}
