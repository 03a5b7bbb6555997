import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { PAGE_SIZE } from '../../../shared/constants';
import { urls, youtubeEmbedUrl } from '../../../shared/urls';
import { addIsland } from '../../views';
import { addSavesIsland } from '../saves/page-island';
import { page, type PageAnswer, type PageView } from '../../http/pages/page-view';
import { absolute } from '../../http/pages/canonical-url';
import { pagesOrFirstPage, pageWindow } from '../../http/pages/page-param';
import { whenFlag } from '../../http/pages/feature-gate';
import { listVideos } from './queries';
import { publishedVideo, relatedVideos, videoCategories, videoCategoryBySlug, type VideoCategoryRow } from './queries';
import { toVideoDTO } from './serialize';
import type { VideoGridState } from '../../../shared/dto';

// Videos: the latest (36 to a page), each channel's latest, and a page per video with the
// YouTube player (youtube-nocookie, which the CSP's frame-src allows).

export function videosPages(ctx: AppContext): Router {
  const router = Router();
  const on = whenFlag(ctx, 'videos');
  const shared = 'shared-for-guests';

  // ## Videos
  router.get('/videos/', on, page(shared, (req, res) => videoGrid(ctx, req, res, null)));
  router.get('/videos/category/:slug/', on, page(shared, (req, res) => categoryGrid(ctx, req, res)));
  router.get('/videos/:slug/', on, page(shared, (req, res) => videoPage(ctx, req, res)));

  return router;
}

async function categoryGrid(ctx: AppContext, req: Request, res: Response): Promise<PageAnswer> {
  const category = await videoCategoryBySlug(ctx.dbRead, String(req.params.slug));
  if (!category) return null;
  return videoGrid(ctx, req, res, category);
}

async function videoGrid(ctx: AppContext, req: Request, res: Response, category: VideoCategoryRow | null): Promise<PageView> {
  const { page, limit, offset } = pageWindow(req, PAGE_SIZE.videos);
  const now = ctx.now();
  const [result, categories] = await Promise.all([
    listVideos(ctx.dbRead, { limit, offset, ordering: '-date_published', category: category?.slug }, { siteUrl: '', now }),
    videoCategories(ctx.dbRead, now),
  ]);
  const pages = pagesOrFirstPage(req, page, result.count, limit);
  const path = category ? urls.videoCategory(category.slug) : '/videos/';
  const title = category ? `Latest in ${category.name}` : 'Latest Videos';
  // Each thumbnail plays in place (islands/video-grid); each card has its save control.
  if (result.results.length) addIsland(res, 'video-grid', { videos: result.results } satisfies VideoGridState);
  addSavesIsland(ctx, req, res, ['videoBookmarks']);
  return {
    template: 'videos/index.njk',
    title,
    category,
    categories,
    videos: result.results,
    count: result.count,
    page,
    pages,
    path,
    pageTitle: page > 1 ? `${title} (page ${page})` : title,
    pageDescription: category ? `The latest ${category.name} videos from ${ctx.config.site.name}.` : `The latest videos from ${ctx.config.site.name}.`,
    canonicalUrl: absolute(ctx, path) + (page > 1 ? `?page=${page}` : ''),
  };
}

async function videoPage(ctx: AppContext, req: Request, res: Response): Promise<PageAnswer> {
  const now = ctx.now();
  const video = await publishedVideo(ctx.dbRead, String(req.params.slug), now);
  if (!video) return null;
  const related = await relatedVideos(ctx.dbRead, video, now, 8);
  const dto = toVideoDTO(video, ctx.config.site.url);
  addSavesIsland(ctx, req, res, ['videoBookmarks']);
  return {
    template: 'videos/detail.njk',
    video,
    dto,
    related: related.map((r) => toVideoDTO(r, '')),
    structuredData: {
      '@context': 'https://schema.org',
      '@type': 'VideoObject',
      name: video.title,
      description: video.description || video.title,
      thumbnailUrl: dto.image_url,
      uploadDate: dto.date_published,
      embedUrl: youtubeEmbedUrl(video.youtube_code),
      ...(video.duration_seconds ? { duration: `PT${video.duration_seconds}S` } : {}),
    },
    pageTitle: video.title,
    pageDescription: video.description.slice(0, 200) || video.title,
    canonicalUrl: absolute(ctx, urls.video(video.slug)),
  };
}
