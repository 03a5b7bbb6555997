import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import type { Db } from '../../db';
import { STORY_LIMITS, TK_RE, storyNodes, type GalleryItem, type StoryDoc } from '../../../shared/newsroom';
import { renderStoryDoc } from '../articles/story-render';
import { LINK_CHECK_LIMITS, type LinkChecker, type LinkProblem } from './link-check';
import { bestOfIds, existingListingIds, existingStoryPaths, placesByIds, publicEventIds } from './queries';
import type { StoryRow, StoryValues } from './serialize';
import moment from 'moment-timezone';

// The checks before publishing (issue 37). A blocking one stops Publish and Schedule unless an
// editor overrides it with a reason (audited); a warning is shown and publishes anyway. They
// read the working copy: what would go live.

export interface StoryCheck {
  code: string;
  message: string;
  blocking: boolean;
  field?: string;
}

/** /{type}/{yyyy}/{mm}/{slug}/, a story's path. */
const STORY_PATH = /^\/[a-z0-9-]+\/\d{4}\/\d{2}\/[^/]+\/$/;
/** /{type}/{slug}-{id}/, a place's path. */
const PLACE_PATH = /^\/[a-z0-9-]+\/[a-z0-9-]+-(\d+)\/$/;

/**
 * `db`: the transaction the caller holds, if any (the embedded database has one connection).
 * `links`: the checker that fetches links to other sites; without one (publishing, which reads
 * only the blocking checks inside its transaction) they are not fetched.
 */
export async function storyChecks(ctx: AppContext, db: Db | Knex.Transaction, _row: StoryRow, v: StoryValues, links?: LinkChecker): Promise<StoryCheck[]> {
  const out: StoryCheck[] = [];
  const doc = (v.doc ?? { type: 'doc', content: [] }) as StoryDoc;
  const nodes = [...storyNodes(doc)];
  const text = renderStoryDoc(doc).text;

  if (!String(v.name ?? '').trim()) out.push({ code: 'headline', message: 'The story needs a headline.', blocking: true, field: 'name' });
  if (!text.trim()) out.push({ code: 'empty', message: 'The story has no body yet.', blocking: true, field: 'doc' });

  // Pictures: alt text and credit on every one.
  const pictures: Array<{ alt: string; credit: string; where: string }> = [];
  if (v.image_key) pictures.push({ alt: String(v.image_alt ?? ''), credit: String(v.image_credit ?? ''), where: 'The story image' });
  let n = 0;
  for (const node of nodes) {
    if (node.type === 'image') pictures.push({ alt: String(node.attrs?.alt ?? ''), credit: String(node.attrs?.credit ?? ''), where: `Picture ${++n} in the body` });
    if (node.type === 'gallery') for (const item of (node.attrs?.items as GalleryItem[] | undefined) ?? []) pictures.push({ alt: item.alt ?? '', credit: item.credit ?? '', where: `Gallery picture ${++n}` });
  }
  for (const p of pictures) {
    if (!p.alt.trim()) out.push({ code: 'alt', message: `${p.where} has no alt text.`, blocking: true });
    if (!p.credit.trim()) out.push({ code: 'credit', message: `${p.where} has no credit.`, blocking: true });
  }

  // "TK": a fact still to come.
  for (const [field, value, label] of [['name', v.name, 'headline'], ['excerpt', v.excerpt, 'excerpt'], ['doc', text, 'body']] as const) {
    if (TK_RE.test(String(value ?? ''))) out.push({ code: 'tk', message: `The ${label} still has “TK” in it.`, blocking: true, field });
  }

  const description = String(v.seo_description ?? '');
  if (description.length > STORY_LIMITS.seoDescriptionMax) {
    out.push({ code: 'seo_description', message: `The SEO description is ${description.length} characters; search engines show ${STORY_LIMITS.seoDescriptionMax}.`, blocking: true, field: 'seo_description' });
  } else if (!description && !String(v.excerpt ?? '').trim()) {
    out.push({ code: 'seo_description_missing', message: 'No excerpt or SEO description: search engines will pick a sentence themselves.', blocking: false, field: 'seo_description' });
  }

  if (v.is_sponsored && !String(v.sponsor_name ?? '').trim()) out.push({ code: 'sponsor', message: 'A sponsored story must name its sponsor.', blocking: true, field: 'sponsor_name' });

  // Links on this site must lead somewhere; links elsewhere are fetched, and only warned about.
  const site = ctx.config.site.url;
  const storyPaths = new Set<string>();
  const placeIds = new Map<number, string>();
  const external = new Set<string>();
  for (const node of nodes) {
    for (const m of node.marks ?? []) {
      if (m.type !== 'link') continue;
      let href = String(m.attrs?.href ?? '');
      if (href.startsWith(site)) href = href.slice(site.length) || '/';
      if (href.startsWith('/') && !href.startsWith('//')) {
        const path = href.split(/[?#]/)[0];
        const place = PLACE_PATH.exec(path);
        if (STORY_PATH.test(path)) storyPaths.add(path);
        else if (place) placeIds.set(Number(place[1]), path);
      } else if (/^https?:/.test(href)) external.add(href);
    }
  }
  const checkExternal = external.size > 0 && links !== undefined;
  const [foundStories, foundPlaces, linkProblems] = await Promise.all([
    existingStoryPaths(db as Db, ctx.now(), [...storyPaths]),
    existingListingIds(db as Db, [...placeIds.keys()]),
    checkExternal ? links.check([...external]) : new Map<string, LinkProblem>(),
  ]);
  for (const p of storyPaths) if (!foundStories.has(p)) out.push({ code: 'internal_link', message: `The link to ${p} leads to no published story.`, blocking: true, field: 'doc' });
  for (const [id, p] of placeIds) if (!foundPlaces.has(id)) out.push({ code: 'internal_link', message: `The link to ${p} leads to no place.`, blocking: true, field: 'doc' });
  for (const href of external) {
    const problem = linkProblems.get(href);
    if (problem) out.push({ code: 'external_link', message: `The link to ${href} ${problem}.`, blocking: false, field: 'doc' });
  }
  const unchecked = checkExternal ? external.size - linkProblems.size : 0;
  if (unchecked > 0) out.push({ code: 'external_links_unchecked', message: `${unchecked} more link${unchecked === 1 ? '' : 's'} to other sites ${unchecked === 1 ? 'was' : 'were'} not checked (the first ${LINK_CHECK_LIMITS.maxLinks} were).`, blocking: false, field: 'doc' });

  // Live cards: each must name something that exists, and no place that has closed.
  const cards = nodes.filter((x) => x.type === 'liveCard').map((x) => ({ kind: String(x.attrs?.kind), id: Number(x.attrs?.id), label: String(x.attrs?.label ?? '') }));
  const ids = (k: string) => cards.filter((c) => c.kind === k).map((c) => c.id);
  const [places, events, lists] = await Promise.all([placesByIds(db as Db, ids('place')), publicEventIds(db as Db, ids('event')), bestOfIds(db as Db, ids('bestOf'))]);
  const today = moment(ctx.now()).tz(ctx.config.city.timeZone).format('YYYY-MM-DD');
  for (const c of cards) {
    if (c.kind === 'place') {
      const p = places.find((x) => Number(x.id) === c.id);
      const closedOn = p?.closed_on ? moment(p.closed_on).format('YYYY-MM-DD') : null;
      if (!p) out.push({ code: 'live_card', message: `The place card “${c.label}” names a place that is gone.`, blocking: true, field: 'doc' });
      else if (closedOn && closedOn <= today) out.push({ code: 'closed_place', message: `${p.name} has closed (${closedOn}); take its card out or say so.`, blocking: true, field: 'doc' });
    } else if (c.kind === 'event' && !events.includes(c.id)) out.push({ code: 'live_card', message: `The event card “${c.label}” names an event that is not public.`, blocking: true, field: 'doc' });
    else if (c.kind === 'bestOf' && !lists.includes(c.id)) out.push({ code: 'live_card', message: `The Best of card “${c.label}” names a list that is gone.`, blocking: true, field: 'doc' });
  }
  return out;
}
