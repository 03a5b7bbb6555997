import { Router } from 'express';
import type { AppContext } from '../../context';
import { requireMember } from '../../http/auth-guards';
import { saveHandlers } from '../saves/handlers';
import { articleBookmarksKind } from './articles';
import { createEventBookmark, eventBookmarksKind } from './events';
import { videoBookmarksKind } from './videos';

// Saved articles, videos and events (spec 1 §7). Lists carry server_time; the *_ids maps
// answer object id → bookmark id. Creating twice answers the existing bookmark with 200.
export function bookmarksApi(ctx: AppContext): Router {
  const router = Router();
  const articles = saveHandlers(ctx, articleBookmarksKind);
  const videos = saveHandlers(ctx, videoBookmarksKind);
  const events = saveHandlers(ctx, eventBookmarksKind);

  // ## Article bookmarks: POST {object_id}; ordering article_name | -article_date | -date_created
  router.get('/api/v2/article-bookmarks/', requireMember, articles.list);
  router.post('/api/v2/article-bookmarks/', requireMember, articles.create);
  router.get('/api/v2/article-bookmarks/article_ids/', requireMember, articles.ids);
  router.get('/api/v2/article-bookmarks/:id/', requireMember, articles.retrieve);
  router.delete('/api/v2/article-bookmarks/:id/', requireMember, articles.remove);

  // ## Video bookmarks: POST {video}; ordering video_title | -video_date | -date_created
  router.get('/api/v2/video-bookmarks/', requireMember, videos.list);
  router.post('/api/v2/video-bookmarks/', requireMember, videos.create);
  router.get('/api/v2/video-bookmarks/video_ids/', requireMember, videos.ids);
  router.get('/api/v2/video-bookmarks/:id/', requireMember, videos.retrieve);
  router.delete('/api/v2/video-bookmarks/:id/', requireMember, videos.remove);

  // ## Event bookmarks: POST {object_id, add_to_calendar?}; 200 {"status": 101, authorization_url}
  // when Google Calendar must be authorised first
  router.get('/api/v2/event-bookmarks/', requireMember, events.list);
  router.post('/api/v2/event-bookmarks/', requireMember, createEventBookmark(ctx));
  router.get('/api/v2/event-bookmarks/event_ids/', requireMember, events.ids);
  router.get('/api/v2/event-bookmarks/:id/', requireMember, events.retrieve);
  router.delete('/api/v2/event-bookmarks/:id/', requireMember, events.remove);
  return router;
}
