import type { AppContext } from '../../context';
import type { ImageSizeName } from '../../../shared/constants';
import { isImageKey, purgeRenditions, renditionKey, renditionStore, warmRenditions } from './renditions';
import { renditionParamsFor, type RenditionParams } from './rendition-params';

// Renditions made ahead of the first request, on the job queue rather than in the upload's
// request, so the upload answers as soon as the original is stored. Nothing depends on the job:
// /media/ makes a missing rendition on first request (renditions.ts), so a job not sent, late or
// failed for good only costs the first visitor the resize.

/** The queue's job that renders an image's sizes: `{ key, set }` (WarmRenditionsData). */
export const WARM_RENDITIONS_JOB = 'media.warm-renditions';

/** The sizes each kind of upload is shown at, made by the job. */
export const WARM_RENDITION_SETS = {
  // The photo grid (340 square), the listing card (610 square), the viewer (720 box).
  photo: ['squareSmall', 'square', 'squareLarge'],
  // What every page shows of a member.
  avatar: ['avatar'],
} as const satisfies Record<string, readonly ImageSizeName[]>;

export type WarmRenditionSet = keyof typeof WARM_RENDITION_SETS;

export interface WarmRenditionsData {
  /** The original's key in ctx.storage. */
  key: string;
  set: WarmRenditionSet;
}

/** The renditions of a set. */
export function renditionSet(set: WarmRenditionSet): RenditionParams[] {
  return WARM_RENDITION_SETS[set].map(renditionParamsFor);
}

function isSetName(value: unknown): value is WarmRenditionSet {
  return typeof value === 'string' && Object.hasOwn(WARM_RENDITION_SETS, value);
}

/** The job's data, checked: it came through the database as JSON. */
export function parseWarmRenditionsData(data: unknown): WarmRenditionsData {
  const d = data as { key?: unknown; set?: unknown } | null;
  if (!d || typeof d !== 'object' || typeof d.key !== 'string' || !isImageKey(d.key) || !isSetName(d.set)) {
    throw new Error(`${WARM_RENDITIONS_JOB}: bad job data ${JSON.stringify(data)}`);
  }
  return { key: d.key, set: d.set };
}

/**
 * Asks the queue to render a fresh upload's sizes. One job per key waits at a time (the queue's
 * policy is short, keyed by the storage key), so a double send is one job. A send that fails is
 * logged and forgotten: the sizes are then made on first request.
 */
export async function queueRenditionWarmUp(ctx: Pick<AppContext, 'jobs' | 'logger'>, key: string, set: WarmRenditionSet): Promise<void> {
  const data: WarmRenditionsData = { key, set };
  await ctx.jobs.send(WARM_RENDITIONS_JOB, data, { singletonKey: key }).catch((err: unknown) => {
    ctx.logger.warn({ err, key, set }, 'media: could not queue the rendition warm-up; sizes will be made on first request');
  });
}

/**
 * The media.warm-renditions job: renders the set's sizes of the stored original that the
 * rendition store does not hold yet, and answers how many it rendered. Idempotent: a retry, or
 * a run after a process died mid-job, renders only what is still missing (a rendition made
 * meanwhile by a request is left alone; one written twice by a race is replaced whole, as every
 * put is). An original deleted before or during the run leaves nothing behind and is done.
 * A store that cannot be written (full disk, bucket away) throws: the queue retries later.
 */
export async function runWarmRenditionsJob(ctx: Pick<AppContext, 'storage' | 'config' | 'logger'>, data: unknown): Promise<{ rendered: number }> {
  const { key, set } = parseWarmRenditionsData(data);
  const renditions = renditionStore(ctx);
  const sizes = renditionSet(set);
  const held = await Promise.all(sizes.map((p) => renditions.exists(renditionKey(key, p))));
  const missing = sizes.filter((_, i) => !held[i]);
  if (missing.length === 0) return { rendered: 0 };
  const original = await ctx.storage.get(key);
  if (!original) return { rendered: 0 }; // CASE: deleted (the photo removed, the avatar replaced) before the job ran.
  await warmRenditions(renditions, key, original, missing);
  // CASE: deleted while it rendered: its purge may have run before these were written.
  if (!(await ctx.storage.exists(key))) {
    await purgeRenditions(renditions, key);
    return { rendered: 0 };
  }
  return { rendered: missing.length };
}
