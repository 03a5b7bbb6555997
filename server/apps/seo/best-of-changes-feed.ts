import type { Request, Response } from 'express';
import type { AppContext } from '../../context';
import { NotFoundError } from '../../http/errors';
import { bestOfChanges, bestOfListBySlug } from '../articles/queries';
import { bestOfChangesPath, bestOfChangeView } from '../articles/view-models';
import { sendXml } from './xml';
import { addSurrogateKeys, surrogateKeys } from '../../http/surrogate-keys';
import { rssDocument, RSS_ITEMS } from './rss';

/** Readers may see a change a minute after it is made (the list page's own max-age). */
const FEED_MAX_AGE_SECONDS = 60;

/** /best-of/{slug}/changes/rss.xml: a Best of list's change log as RSS, newest first, each item the change and the editor's reason. */
export function bestOfChangesRss(ctx: AppContext) {
  return async (req: Request, res: Response) => {
    if (!ctx.config.flags.bestOf) throw new NotFoundError();
    const list = await bestOfListBySlug(ctx.db, ctx.now(), String(req.params.slug));
    if (!list) throw new NotFoundError();
    // A change to the list (bestOfListKeys) drops it at the edge.
    addSurrogateKeys(res, [surrogateKeys.list(list.id)]);
    const { rows } = await bestOfChanges(ctx.db, list.id, { limit: RSS_ITEMS, offset: 0 });
    const site = ctx.config.site.url;
    const path = bestOfChangesPath(list.slug);
    const items = rows.map(bestOfChangeView).map((c) => {
      const link = `${site}${path}#change-${c.id}`;
      return { title: c.summary, link, guid: { value: link, isPermaLink: true }, date: c.created_at, category: list.title, description: c.reason };
    });
    const channel = { title: `Changes to ${list.title} | ${ctx.config.site.name}`, path, selfPath: `${path}rss.xml`, description: `Places added to, removed from and moved on ${list.title}, with our editors' reasons.` };
    sendXml(res, rssDocument(ctx.config, channel, items), FEED_MAX_AGE_SECONDS, 'application/rss+xml');
  };
}
