import fs from 'node:fs';
import path from 'node:path';
import { SaxesParser } from 'saxes';
import type { Db } from '../../db';
import type { Storage } from '../../storage/storage';
import { STORY_LIMITS, storyDocError, type StoryDoc, type StoryStatus } from '../../../shared/newsroom';
import { renderStoryDoc } from '../articles/story-render';
import { normaliseImage, NotAnImageError } from '../media/ingest';
import { UPLOADED_IMAGE_MAX_SIDE } from '../uploads/service';
import { htmlText, htmlToDoc, type WpAttachment } from './html-to-doc';
import { forgetPath, insertStory, rememberOldPath, updateStory } from './queries';
import { addStoryType, insertImportRevision, memberIdByEmail, storyByWordpressGuid, storyPathTaken, storyTypes, type StoryTypeRow } from './wordpress-import-queries';

// "Coming from WordPress" (issue 37): `npm run import:wordpress -- export.xml [--media DIR]`.
// A WordPress export (WXR) is read as a stream, twice: first the authors, categories and
// attachments (small: what posts refer to, wherever in the file it stands), then the posts, each
// converted (html-to-doc.ts), its pictures found in DIR (a copy of wp-content/uploads) and put
// through the upload pipeline, validated against the story schema and written in its own
// transaction: the story (keyed by wordpress_guid, so a second run updates), a revision
// ("import") and its old WordPress paths in article_path_history, which answer 301.

/** One `<item>` of the export, as far as the import reads it. */
export interface WxrItem {
  title: string;
  link: string;
  guid: string;
  pubDate: string;
  creator: string;
  content: string;
  excerpt: string;
  postId: number;
  postDate: string;
  postDateGmt: string;
  modifiedGmt: string;
  postName: string;
  status: string;
  postType: string;
  parent: number;
  attachmentUrl: string;
  categories: Array<{ domain: string; nicename: string; name: string }>;
  meta: Record<string, string>;
}

export interface WxrAuthor {
  login: string;
  email: string;
  displayName: string;
}

export interface WxrHandlers {
  author?(a: WxrAuthor): void;
  category?(c: { nicename: string; name: string }): void;
  item?(i: WxrItem): void | Promise<void>;
}

const ITEM_FIELDS: Record<string, Exclude<keyof WxrItem, 'categories' | 'meta' | 'postId' | 'parent'>> = {
  title: 'title', link: 'link', guid: 'guid', pubDate: 'pubDate', 'dc:creator': 'creator', 'content:encoded': 'content',
  'excerpt:encoded': 'excerpt', 'wp:post_date': 'postDate', 'wp:post_date_gmt': 'postDateGmt', 'wp:post_modified_gmt': 'modifiedGmt',
  'wp:post_name': 'postName', 'wp:status': 'status', 'wp:post_type': 'postType', 'wp:attachment_url': 'attachmentUrl',
};

const newItem = (): WxrItem => ({
  title: '', link: '', guid: '', pubDate: '', creator: '', content: '', excerpt: '', postId: 0, postDate: '', postDateGmt: '',
  modifiedGmt: '', postName: '', status: '', postType: '', parent: 0, attachmentUrl: '', categories: [], meta: {},
});

/** Characters XML 1.0 forbids, which WordPress exports sometimes carry anyway. */
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** HTML entities WordPress leaves outside CDATA in older exports. */
const HTML_ENTITIES: Record<string, string> = {
  nbsp: '\u00a0', hellip: '…', mdash: '—', ndash: '–', rsquo: '’', lsquo: '‘', ldquo: '“', rdquo: '”', copy: '©', reg: '®', trade: '™', eacute: 'é', egrave: 'è', laquo: '«', raquo: '»', middot: '·', bull: '•',
};

/**
 * Reads a WXR file as a stream (in bounded memory, whatever its size), calling the handlers as
 * each author, category and item closes. An item handler's promise is awaited before the file
 * is read further.
 */
export async function readWxr(file: string, handlers: WxrHandlers): Promise<void> {
  const parser = new SaxesParser();
  Object.assign(parser.ENTITIES, HTML_ENTITIES);
  const stack: string[] = [];
  const queue: WxrItem[] = [];
  let text = '';
  let item: WxrItem | null = null;
  let author: WxrAuthor | null = null;
  let category: { nicename: string; name: string } | null = null;
  let metaKey = '';
  let metaValue = '';
  let categoryAttrs: Record<string, string> = {};

  parser.on('opentag', (tag) => {
    const name = tag.name;
    stack.push(name);
    text = '';
    if (name === 'item') item = newItem();
    else if (name === 'wp:author' && !item) author = { login: '', email: '', displayName: '' };
    else if (name === 'wp:category' && !item) category = { nicename: '', name: '' };
    else if (name === 'wp:postmeta') metaKey = metaValue = '';
    else if (name === 'category' && item) categoryAttrs = tag.attributes as Record<string, string>;
  });
  parser.on('text', (t) => {
    text += t;
  });
  parser.on('cdata', (t) => {
    text += t;
  });
  parser.on('closetag', (tag) => {
    const name = tag.name;
    stack.pop();
    const parent = stack[stack.length - 1];
    const value = text;
    text = '';
    if (item) {
      if (name === 'item') {
        queue.push(item);
        item = null;
      } else if (parent === 'item') {
        const field = ITEM_FIELDS[name];
        if (field) item[field] = value.trim();
        else if (name === 'wp:post_id') item.postId = Number(value.trim()) || 0;
        else if (name === 'wp:post_parent') item.parent = Number(value.trim()) || 0;
        else if (name === 'category') item.categories.push({ domain: categoryAttrs.domain ?? '', nicename: categoryAttrs.nicename ?? '', name: value.trim() });
        else if (name === 'wp:postmeta' && metaKey) item.meta[metaKey] = metaValue;
      } else if (parent === 'wp:postmeta') {
        if (name === 'wp:meta_key') metaKey = value.trim();
        else if (name === 'wp:meta_value') metaValue = value;
      }
    } else if (author) {
      if (name === 'wp:author') {
        handlers.author?.(author);
        author = null;
      } else if (name === 'wp:author_login') author.login = value.trim();
      else if (name === 'wp:author_email') author.email = value.trim();
      else if (name === 'wp:author_display_name') author.displayName = value.trim();
    } else if (category) {
      if (name === 'wp:category') {
        handlers.category?.(category);
        category = null;
      } else if (name === 'wp:category_nicename') category.nicename = value.trim();
      else if (name === 'wp:cat_name') category.name = value.trim();
    }
  });

  const stream = fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  try {
    for await (const chunk of stream) {
      parser.write((chunk as string).replace(XML_INVALID, ''));
      while (queue.length) await handlers.item?.(queue.shift()!);
    }
    parser.close();
    while (queue.length) await handlers.item?.(queue.shift()!);
  } finally {
    stream.destroy();
  }
}

// ## Pictures

/** The path of an uploaded file under wp-content/uploads ("2019/05/tower.jpg"), or null. */
export function uploadsPath(src: string): string | null {
  let p: string;
  try {
    p = decodeURIComponent(new URL(src, 'http://wordpress.invalid/').pathname);
  } catch {
    return null;
  }
  const m = /\/wp-content\/uploads\/(.+)$/.exec(p) ?? /^\/?(\d{4}\/\d{2}\/[^/]+)$/.exec(p);
  if (!m) return null;
  const rel = m[1];
  if (rel.split('/').some((seg) => seg === '' || seg === '.' || seg === '..') || rel.includes('\\') || rel.includes('\0')) return null;
  return rel;
}

/** The original of a resized copy WordPress made: tower-300x200.jpg, tower-scaled.jpg → tower.jpg. */
function originalOf(rel: string): string | null {
  const orig = rel.replace(/-(?:\d+x\d+|scaled|rotated|e\d{10,})(\.[A-Za-z0-9]+)$/, '$1');
  return orig === rel ? null : orig;
}

const safeSegment = (s: string) => s.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '') || 'image';
const MAX_IMAGE_BYTES = 50 * 1024 * 1024;

/** Where an imported picture is kept: stories/wordpress/2019/05/tower.jpg (a PNG with transparency stays PNG). */
export function wordpressImageKey(rel: string, extension: 'jpg' | 'png'): string {
  const parts = rel.split('/');
  const file = parts.pop()!;
  const dot = file.lastIndexOf('.');
  const stem = safeSegment(dot > 0 ? file.slice(0, dot) : file);
  let ext = dot > 0 ? file.slice(dot + 1).toLowerCase() : '';
  if (ext === 'jpeg') ext = 'jpg';
  const name = ext === extension ? `${stem}.${extension}` : `${stem}${ext ? `-${safeSegment(ext)}` : ''}.${extension}`;
  return ['stories', 'wordpress', ...parts.map(safeSegment), name].join('/');
}

/**
 * Finds pictures in the media directory and stores them as the upload pipeline does (decoded,
 * upright, without metadata, at most 2400 px), once per file per run; a picture stored by an
 * earlier run is reused.
 */
export function createImageResolver(storage: Storage, mediaDir: string | undefined) {
  const cache = new Map<string, Promise<string | null>>();
  const root = mediaDir ? path.resolve(mediaDir) : null;

  async function store(rel: string): Promise<string | null> {
    if (!root) return null;
    const file = path.join(root, ...rel.split('/'));
    if (!file.startsWith(root + path.sep)) return null;
    let stat;
    try {
      stat = await fs.promises.stat(file);
    } catch {
      return null;
    }
    if (!stat.isFile() || stat.size > MAX_IMAGE_BYTES) return null;
    for (const ext of ['jpg', 'png'] as const) {
      const key = wordpressImageKey(rel, ext);
      if (await storage.exists(key)) return key;
    }
    let stored;
    try {
      stored = await normaliseImage(await fs.promises.readFile(file), { maxSide: UPLOADED_IMAGE_MAX_SIDE, quality: 88, keepAlpha: true });
    } catch (err) {
      if (err instanceof NotAnImageError) return null;
      throw err;
    }
    const key = wordpressImageKey(rel, stored.extension);
    await storage.put(key, stored.data, stored.format === 'png' ? 'image/png' : 'image/jpeg');
    return key;
  }

  return async function resolve(src: string): Promise<string | null> {
    const rel = uploadsPath(src);
    if (!rel) return null;
    for (const candidate of [originalOf(rel), rel]) {
      if (!candidate) continue;
      if (!cache.has(candidate)) cache.set(candidate, store(candidate));
      const key = await cache.get(candidate)!;
      if (key) return key;
    }
    return null;
  };
}

// ## Mapping

export interface PostReport {
  wordpressId: number;
  title: string;
  action: 'imported' | 'updated' | 'skipped';
  status?: StoryStatus;
  path?: string;
  type?: string;
  /** Why a post was skipped. */
  error?: string;
  dropped: Record<string, number>;
  missingImages: string[];
}

export interface ImportReport {
  imported: number;
  updated: number;
  skipped: number;
  posts: PostReport[];
  pagesLeftOut: Array<{ wordpressId: number; title: string; link: string }>;
  /** Categories that name no story type, with how many posts went to the default type for them. */
  unknownCategories: Record<string, number>;
  defaultType: string;
  /** Items neither posts nor pages (revisions, menu items, attachments …) by type, and posts in the trash. */
  ignored: Record<string, number>;
  peakRssBytes: number;
  seconds: number;
}

export interface ImportOptions {
  mediaDir?: string;
  /** The story type for posts whose categories name none; default `news`, else the first type. */
  defaultType?: string;
  now?: () => Date;
  /** Called after each post (progress on a long import). */
  onPost?(post: PostReport): void;
}

const STATUS_MAP: Record<string, StoryStatus> = { publish: 'published', draft: 'draft', pending: 'review', future: 'scheduled', private: 'draft' };

/** "2019-05-17 14:00:00" (UTC) as a date; null for WordPress's "0000-00-00 00:00:00". */
export function wpDate(s: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(s.trim());
  if (!m || m[1] === '0000') return null;
  const d = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A WordPress slug (percent-encoded when not ASCII) as ours. */
export function storySlug(postName: string, title: string, id: number): string {
  let raw = postName;
  try {
    raw = decodeURIComponent(postName);
  } catch {
    // as written
  }
  const clean = (s: string) => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/&/g, ' and ').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 180).replace(/-+$/, '');
  return clean(raw) || clean(title) || `post-${id}`;
}

/** The old addresses of a post on WordPress, as paths (with the query): its permalink and /?p=ID. */
export function oldPaths(item: Pick<WxrItem, 'link' | 'guid' | 'postId'>): string[] {
  const paths = new Set<string>();
  for (const raw of [item.link, item.guid]) {
    try {
      const u = new URL(raw);
      if (u.protocol === 'http:' || u.protocol === 'https:') paths.add(u.pathname + u.search);
    } catch {
      // not an address
    }
  }
  if (item.postId) paths.add(`/?p=${item.postId}`);
  return [...paths].filter((p) => p !== '/' && p.length <= 1000);
}

function excerptOf(item: WxrItem, text: string): string {
  const own = htmlText(item.excerpt);
  if (own) return own.slice(0, STORY_LIMITS.excerptMax);
  const first = text.split(/\n{2,}/)[0] ?? '';
  if (first.length <= 300) return first;
  return first.slice(0, 300).replace(/\s+\S*$/, '') + '…';
}

/** Imports a WXR file; see the top of this file. */
export async function importWordPress(db: Db, storage: Storage, file: string, opts: ImportOptions = {}): Promise<ImportReport> {
  const t0 = Date.now();
  const now = opts.now ?? (() => new Date());
  let peak = process.memoryUsage().rss;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const sampler = setInterval(sample, 50);
  sampler.unref();
  try {
    await fs.promises.access(file, fs.constants.R_OK);
    if (opts.mediaDir && !(await fs.promises.stat(opts.mediaDir)).isDirectory()) throw new Error(`${opts.mediaDir} is not a directory.`);

    let types = await storyTypes(db);
    if (!types.length) {
      // A site that was never seeded has no story type: the default one is made.
      const slug = (opts.defaultType ?? 'news').toLowerCase();
      types = await addStoryType(db, { slug, name: slug.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase()), position: 0 });
    }
    const bySlug = new Map(types.map((t) => [t.slug.toLowerCase(), t]));
    const byName = new Map(types.map((t) => [t.name.toLowerCase(), t]));
    const fallback = opts.defaultType ? bySlug.get(opts.defaultType.toLowerCase()) : bySlug.get('news') ?? types[0];
    if (!fallback) throw new Error(`No story type has the slug “${opts.defaultType}”.`);
    const defaultType: StoryTypeRow = fallback;

    // Pass 1: what posts refer to.
    const authors = new Map<string, WxrAuthor>();
    const categoryNames = new Map<string, string>();
    const attachments = new Map<number, WpAttachment>();
    await readWxr(file, {
      author: (a) => authors.set(a.login, a),
      category: (c) => categoryNames.set(c.nicename, c.name),
      item: (i) => {
        if (i.postType === 'attachment' && i.postId) {
          attachments.set(i.postId, { url: i.attachmentUrl || i.guid, alt: (i.meta._wp_attachment_image_alt ?? '').trim(), caption: htmlText(i.excerpt) });
        }
        sample();
      },
    });

    const report: ImportReport = { imported: 0, updated: 0, skipped: 0, posts: [], pagesLeftOut: [], unknownCategories: {}, defaultType: fallback.slug, ignored: {}, peakRssBytes: 0, seconds: 0 };
    const resolveImage = createImageResolver(storage, opts.mediaDir);
    const memberIds = new Map<string, number | null>();
    const memberId = async (email: string): Promise<number | null> => {
      const e = email.trim().toLowerCase();
      if (!e) return null;
      if (!memberIds.has(e)) memberIds.set(e, await memberIdByEmail(db, e));
      return memberIds.get(e) ?? null;
    };

    // Pass 2: the posts.
    await readWxr(file, {
      item: async (item) => {
        sample();
        if (item.postType === 'page') {
          report.pagesLeftOut.push({ wordpressId: item.postId, title: htmlText(item.title), link: item.link });
          return;
        }
        if (item.postType === 'attachment') return; // read in the first pass, stored when a post uses it
        const status = STATUS_MAP[item.status];
        if (item.postType !== 'post' || !status) {
          const kind = item.postType !== 'post' ? item.postType || 'unknown' : `post (${item.status || 'no status'})`;
          report.ignored[kind] = (report.ignored[kind] ?? 0) + 1;
          return;
        }
        const post = await importPost(item, status);
        report.posts.push(post);
        if (post.action === 'imported') report.imported++;
        else if (post.action === 'updated') report.updated++;
        else report.skipped++;
        opts.onPost?.(post);
        sample();
      },
    });

    async function importPost(item: WxrItem, status: StoryStatus): Promise<PostReport> {
      const title = htmlText(item.title).slice(0, STORY_LIMITS.titleMax) || `(untitled ${item.postId})`;
      const post: PostReport = { wordpressId: item.postId, title, action: 'skipped', dropped: {}, missingImages: [] };
      const guid = (item.guid || `wordpress-post-${item.postId}`).slice(0, 500);

      const cats = item.categories.filter((c) => c.domain === 'category');
      let type: StoryTypeRow | undefined;
      for (const c of cats) {
        type = bySlug.get(c.nicename.toLowerCase()) ?? byName.get(c.name.toLowerCase()) ?? byName.get((categoryNames.get(c.nicename) ?? '').toLowerCase());
        if (type) break;
      }
      if (!type) {
        type = defaultType;
        for (const c of cats.length ? cats : [{ name: '(no category)' }]) report.unknownCategories[c.name] = (report.unknownCategories[c.name] ?? 0) + 1;
      }
      const storyType: StoryTypeRow = type;
      post.type = storyType.slug;
      post.status = status;

      const converted = await htmlToDoc(item.content, { resolveImage, attachment: (id) => attachments.get(id) });
      post.dropped = converted.dropped;
      post.missingImages = converted.missingImages;
      const doc: StoryDoc = converted.doc;

      let imageKey: string | null = null;
      let imageAlt = '';
      const thumb = Number(item.meta._thumbnail_id);
      if (thumb) {
        const a = attachments.get(thumb);
        imageKey = a?.url ? await resolveImage(a.url) : null;
        if (imageKey) imageAlt = (a?.alt ?? '').slice(0, STORY_LIMITS.altMax);
        else post.missingImages.push(`featured image: ${a?.url || `attachment #${thumb}`}`);
      }

      const error = storyDocError(doc);
      if (error) {
        post.error = error;
        return post;
      }
      const rendered = renderStoryDoc(doc);

      const gmt = wpDate(item.postDateGmt);
      const local = wpDate(item.postDate);
      const pub = item.pubDate ? new Date(item.pubDate) : null;
      const when = gmt ?? (pub && !Number.isNaN(pub.getTime()) ? pub : null) ?? local ?? now();
      const pathDate = local ?? when;
      const yyyy = String(pathDate.getUTCFullYear());
      const mm = String(pathDate.getUTCMonth() + 1).padStart(2, '0');
      const creator = authors.get(item.creator);
      const byline = (creator?.displayName || creator?.login || item.creator).slice(0, 100);
      const authorId = creator ? await memberId(creator.email) : null;
      const baseSlug = storySlug(item.postName, title, item.postId);

      await db.transaction(async (trx) => {
        const existing = await storyByWordpressGuid(trx, guid);
        let slug = baseSlug;
        let storyPath = `/${storyType.slug}/${yyyy}/${mm}/${slug}/`;
        for (let n = 2; ; n++) {
          if (!(await storyPathTaken(trx, storyPath, existing?.id))) break;
          slug = `${baseSlug}-${n}`;
          storyPath = `/${storyType.slug}/${yyyy}/${mm}/${slug}/`;
        }
        const fields = {
          name: title, slug, excerpt: excerptOf(item, rendered.text), type_id: storyType.id, doc, image_key: imageKey, image_alt: imageAlt,
          image_credit: '', seo_title: '', seo_description: '', canonical_url: '', social_image_key: null, is_sponsored: false, sponsor_name: '', author_name: byline,
        };
        const row = {
          type_id: storyType.id, name: title, slug, path: storyPath, excerpt: fields.excerpt, body: rendered.text, body_html: rendered.html,
          doc: JSON.stringify(doc), author_name: byline, author_id: authorId, image_key: imageKey, image_alt: imageAlt, status,
          date_published: when, scheduled_at: status === 'scheduled' ? when : null, date_updated: wpDate(item.modifiedGmt) ?? now(), wordpress_guid: guid,
        };
        let id: number;
        let version: number;
        if (existing) {
          id = Number(existing.id);
          version = Number(existing.version) + 1;
          await updateStory(trx, id, { ...row, version });
          if (existing.path !== storyPath) await rememberOldPath(trx, existing.path, id);
          post.action = 'updated';
        } else {
          id = await insertStory(trx, { ...row, date_created: when });
          version = 1;
          post.action = 'imported';
        }
        await forgetPath(trx, storyPath);
        for (const old of oldPaths(item)) {
          if (old !== storyPath) await rememberOldPath(trx, old, id);
        }
        await insertImportRevision(trx, {
          article_id: id, version, reason: 'import', status, fields: JSON.stringify(fields), body_html: rendered.html, author_id: null, author_name: 'WordPress import',
        });
        post.path = storyPath;
      });
      return post;
    }

    sample();
    report.peakRssBytes = peak;
    report.seconds = (Date.now() - t0) / 1000;
    return report;
  } finally {
    clearInterval(sampler);
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** The report as the command prints it. */
export function formatReport(r: ImportReport): string {
  const lines: string[] = [];
  lines.push(`Posts: ${r.imported} imported, ${r.updated} updated, ${r.skipped} skipped (${r.seconds.toFixed(1)} s, peak memory ${mb(r.peakRssBytes)} RSS).`);
  const unknown = Object.entries(r.unknownCategories);
  if (unknown.length) lines.push(`Categories with no story type (those posts went to “${r.defaultType}”): ${unknown.map(([c, n]) => `${c} (${n})`).join(', ')}.`);
  for (const p of r.posts) {
    const dropped = Object.entries(p.dropped).map(([k, n]) => `${n} ${k}`);
    if (!p.error && !dropped.length && !p.missingImages.length) continue;
    lines.push(`  #${p.wordpressId} ${p.title}${p.path ? ` → ${p.path}` : ''}`);
    if (p.error) lines.push(`    skipped: ${p.error}`);
    if (dropped.length) lines.push(`    dropped: ${dropped.join(', ')}`);
    for (const m of p.missingImages) lines.push(`    image not found: ${m}`);
  }
  if (r.pagesLeftOut.length) {
    lines.push(`WordPress pages left out (${r.pagesLeftOut.length}): make them site pages by hand if they are still wanted.`);
    for (const p of r.pagesLeftOut) lines.push(`  #${p.wordpressId} ${p.title} ${p.link}`);
  }
  const ignored = Object.entries(r.ignored);
  if (ignored.length) lines.push(`Other items not imported: ${ignored.map(([k, n]) => `${n} ${k}`).join(', ')}.`);
  return lines.join('\n');
}
