import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { requireStaffPage } from '../../http/auth-guards';
import { staffMenu, type StaffSection } from '../../http/staff-menu';
import type { RequestRules } from '../../http/request-rules';
import { checkFirstFieldToken } from '../../http/csrf';
import { ValidationError, type FieldErrors } from '../../http/errors';
import { idParam, textFieldsOf, validate } from '../../http/validate';
import { imageUrl } from '../../../shared/format/image-url';
import { recentStaffActions, staffActorOf } from '../staff-audit/audit-log-queries';
import { uploadBodySlot } from '../media/image-work';
import { imageUploadParser, type ImageUploadService } from '../uploads/service';
import { uploadFormRefusal } from '../uploads/form-refusal';
import { saveVideo, staffVideoList, videoCategoryChoices, videoForStaff } from './edit-queries';
import { DESCRIPTION_MAX, SLUG_MAX, TITLE_MAX, videoFormSchema, type VideoForm } from './schemas';
import { fetchYoutubeStill } from './youtube';
import type { VideoRow } from './serialize';
import { PAGE_SIZE } from '../../../shared/constants';
import { urls, youtubeEmbedUrl } from '../../../shared/urls';
import { addIsland } from '../../views';
import { addSavesIsland } from '../saves/page-island';
import { page, PageRedirect, type PageAnswer, type PageView } from '../../http/pages/page-view';
import { absolute, queryString } from '../../http/pages/canonical-url';
import { pagesOrFirstPage, pageWindow } from '../../http/pages/page-param';
import { whenFlag } from '../../http/pages/feature-gate';
import { listVideos } from './queries';
import { movedVideoSlug, publishedVideo, relatedVideos, videoCategories, videoCategoryBySlug, type VideoCategoryRow } from './queries';
import { toVideoDTO } from './serialize';
import { addSurrogateKeys, surrogateKeys, videoKeys } from '../../http/surrogate-keys';
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
  // Dropped at the edge when staff add or change a video (videoKeys).
  addSurrogateKeys(res, [surrogateKeys.videos]);
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
  const slug = String(req.params.slug);
  const video = await publishedVideo(ctx.dbRead, slug, now);
  if (!video) {
    // CASE: an address the video had before staff changed its slug: 301 to where it is now.
    const moved = await movedVideoSlug(ctx.dbRead, slug, now);
    return moved ? new PageRedirect(urls.video(moved) + queryString(req), 301) : null;
  }
  const related = await relatedVideos(ctx.dbRead, video, now, 8);
  const dto = toVideoDTO(video, ctx.config.site.url);
  addSurrogateKeys(res, [surrogateKeys.video(video.id), surrogateKeys.videos]);
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

// ## Staff: /staff/videos/ (list, new, edit)
// Staff add a video by its YouTube id or address, with a title, a category and an image. The
// image is uploaded (the upload pipeline the house ads use), or, only where the operator allows
// the server outside requests (VIDEO_THUMBNAILS_FROM_YOUTUBE), YouTube's own still fetched
// once and stored as an upload. A new video is published at once. Like every /staff/ page:
// staff only, a plain multipart form whose CSRF token is its first field, 303 after a save, a
// refused form back 400 with the message beside its field and what was typed; each save and its
// audit entry in one transaction; the video's pages purged after it.

const STAFF_URL = '/staff/videos/';
/** One path for adding and changing (the id field says which): a multipart form's token check is by exact path. */
export const VIDEO_FORM_PATH = '/staff/videos/save/';
const IMAGE_FIELD = 'image';
/** The card's box (16:9), which the stored thumbnail fills. */
const CARD_BOX = { box_width: 480, box_height: 270, cropping_mode: 'aspect-fill' as const };
const STAFF_LIST_LIMIT = 200;

/** The videos' section of the staff menu. */
export const videosStaffSection: StaffSection = { href: STAFF_URL, title: 'Videos', text: 'Add a YouTube video, or change one\'s title, category or image.' };
/** The staff video form posts its image without JavaScript: its token is the multipart body's first field. */
export const videosRequestRules: Partial<RequestRules> = { multipartFirstField: [VIDEO_FORM_PATH] };

const noticeSchema = z.object({ saved: z.string().regex(/^\d{1,9}$/).optional() });

interface VideoFormState {
  video: VideoRow | null;
  values: Record<string, unknown>;
  errors: FieldErrors | null;
}

export function videosStaffPages(ctx: AppContext, uploads: ImageUploadService): Router {
  const router = Router();
  const staffOnly = requireStaffPage;
  const fromYoutube = () => ctx.config.videos.thumbnailsFromYoutube;
  const common = (pageTitle: string) => ({ ...staffMenu(ctx, STAFF_URL), pageTitle });

  const formPage = async ({ video, values, errors }: VideoFormState): Promise<PageView> => ({
    template: 'videos/staff/form.njk',
    ...common(video ? `${video.title} – Videos` : 'New video – Videos'),
    video,
    publicUrl: video ? urls.video(video.slug) : null,
    imageUrl: video?.image_key ? imageUrl(video.image_key) : null,
    values,
    errors,
    categories: await videoCategoryChoices(ctx.db),
    fromYoutube: fromYoutube(),
    limits: { title: TITLE_MAX, slug: SLUG_MAX, description: DESCRIPTION_MAX },
    formPath: VIDEO_FORM_PATH,
    imageField: IMAGE_FIELD,
    history: video ? await recentStaffActions(ctx.db, { subjectType: 'video', subjectId: video.id, limit: 20 }) : [],
  });

  router.get(STAFF_URL, staffOnly, page('private', async (req) => {
    const videos = await staffVideoList(ctx.db, STAFF_LIST_LIMIT);
    const now = ctx.now();
    return {
      template: 'videos/staff/index.njk',
      ...common('Videos'),
      videos: videos.map((v) => ({ ...v, imageUrl: v.image_key ? imageUrl(v.image_key) : null, publicUrl: urls.video(v.slug), scheduled: new Date(v.date_published) > now })),
      notice: noticeSchema.safeParse(req.query).data ?? {},
    };
  }));

  router.get('/staff/videos/new/', staffOnly, page('private', () => formPage({ video: null, values: { image_source: fromYoutube() ? 'youtube' : 'upload' }, errors: null })));

  router.get('/staff/videos/:id/', staffOnly, page('private', async (req) => {
    const video = await videoForStaff(ctx.db, idParam(req.params.id));
    return video ? formPage({ video, values: { youtube: video.youtube_code, title: video.title, slug: video.slug, description: video.description, category: video.category_id ? String(video.category_id) : '' }, errors: null }) : null;
  }));

  router.post(VIDEO_FORM_PATH, staffOnly, uploadBodySlot, imageUploadParser, checkFirstFieldToken, page('private', (req, res) => savePost(req, res)));

  /** The image this save stores: the file sent, YouTube's still when asked for (and allowed), or none (keep the current one). */
  async function newImage(req: Request, form: VideoForm, existing: VideoRow | null): Promise<{ key: string; source: 'upload' | 'youtube' } | null> {
    const file = ((req.files as Express.Multer.File[] | undefined) ?? []).find((f) => f.fieldname === IMAGE_FIELD);
    const actor = staffActorOf(req).id;
    if (file) return { key: (await uploads.store(actor, file, CARD_BOX)).key, source: 'upload' };
    if (form.image_source === 'youtube') {
      if (!fromYoutube()) throw ValidationError.field('image', 'This site makes no requests to YouTube: upload an image.');
      const still = await fetchYoutubeStill(form.youtube);
      const asFile = { fieldname: IMAGE_FIELD, originalname: `${form.youtube}.jpg`, mimetype: still.mimetype, buffer: still.buffer, size: still.buffer.length } as Express.Multer.File;
      return { key: (await uploads.store(actor, asFile, CARD_BOX)).key, source: 'youtube' };
    }
    if (!existing) throw ValidationError.field('image', fromYoutube() ? 'Choose an image, or take YouTube\'s still.' : 'Choose an image for the video.');
    return null;
  }

  async function savePost(req: Request, res: Response): Promise<PageView | PageRedirect | null> {
    const values = textFieldsOf(req.body);
    const id = typeof values.id === 'string' && values.id ? idParam(values.id) : null;
    const existing = id === null ? null : ((await videoForStaff(ctx.db, id)) ?? null);
    if (id !== null && !existing) return null;
    try {
      const form = validate(videoFormSchema, values);
      const actor = staffActorOf(req);
      const image = await newImage(req, form, existing);
      const saved = await saveVideo(ctx.db, { actor, now: ctx.now() }, id, {
        youtube_code: form.youtube, title: form.title, slug: form.slug, description: form.description, category_id: form.category, image_key: image?.key, image_source: image?.source,
      });
      // After the commit: the video's page (its old address too), the hub, both channels.
      const paths = new Set(['/videos/', urls.video(form.slug), urls.videoCategory(saved.category_slug)]);
      if (saved.before) {
        paths.add(urls.video(saved.before.slug));
        if (saved.before.category_slug) paths.add(urls.videoCategory(saved.before.category_slug));
      }
      await ctx.changes.announce({ subject: `video:${saved.id}`, paths: [...paths], keys: videoKeys(saved.id) });
      return new PageRedirect(`${STAFF_URL}?saved=${saved.id}`, 303);
    } catch (err) {
      const refusal = uploadFormRefusal(ctx, req, err, IMAGE_FIELD);
      if (!refusal) throw err;
      res.status(refusal.status);
      return formPage({ video: existing, values, errors: refusal.errors });
    }
  }

  return router;
}
