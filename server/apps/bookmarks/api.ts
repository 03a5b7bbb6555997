import { Router } from 'express';
import type { AppContext } from '../../context';
import { saveRouter } from '../saves/api';
import { createEventBookmark } from './events-kind';

// Saved articles, videos and events (spec 1 §7). Lists carry server_time; the *_ids maps
// answer object id → bookmark id. Creating twice answers the existing bookmark with 200.
// - Article bookmarks: POST {object_id}; ordering article_name | -article_date | -date_created
// - Video bookmarks: POST {video}; ordering video_title | -video_date | -date_created
// - Event bookmarks: POST {object_id, add_to_calendar?}; 200 {"status": 101, authorization_url}
//   when Google Calendar must be authorised first
export function bookmarksApi(ctx: AppContext): Router {
  const router = Router();
  router.use(saveRouter(ctx, ctx.saveKinds.articleBookmarks));
  router.use(saveRouter(ctx, ctx.saveKinds.videoBookmarks));
  router.use(saveRouter(ctx, ctx.saveKinds.eventBookmarks, { create: createEventBookmark(ctx) }));
  return router;
}
