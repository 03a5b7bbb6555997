import net from 'node:net';
import { z } from 'zod';
import { refusedAddress, type AddressPolicy } from '../../http/outbound-address';

/** Feeds one member may have: an organiser has a handful of calendars, not dozens. */
export const MAX_FEEDS_PER_MEMBER = 10;
export const URL_MAX = 2000;

export const messages = {
  invalidUrl: 'Enter a valid URL, such as https://example.com/events.ics.',
  scheme: 'Only http, https and webcal addresses can be added.',
  privateHost: 'That address is on a private network; add a feed that is on the public internet.',
  credentials: 'Leave the user name and password out of the address.',
  tooMany: `You can add at most ${MAX_FEEDS_PER_MEMBER} calendar feeds. Remove one first.`,
  duplicate: 'You have already added this feed.',
};

/**
 * The address as stored: webcal:// (what calendar apps hand out) is the same feed over https.
 * A literal private address is refused here; a name is resolved and checked at each fetch.
 */
const feedUrl = (policy: AddressPolicy) => z
  .string({ error: 'This field is required.' })
  .trim()
  .min(1, 'This field is required.')
  .max(URL_MAX, `Ensure this field has no more than ${URL_MAX} characters.`)
  .transform((raw, ctx) => {
    let url: URL;
    try {
      url = new URL(raw.replace(/^webcals?:\/\//i, 'https://'));
    } catch {
      ctx.addIssue({ code: 'custom', message: messages.invalidUrl });
      return z.NEVER;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      ctx.addIssue({ code: 'custom', message: messages.scheme });
      return z.NEVER;
    }
    if (url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: messages.credentials });
      return z.NEVER;
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if ((/^localhost$/i.test(host) && !policy.allowLoopback) || (net.isIP(host) && refusedAddress(host, policy))) {
      ctx.addIssue({ code: 'custom', message: messages.privateHost });
      return z.NEVER;
    }
    url.hash = '';
    return url.href;
  });

export const addFeedSchema = (policy: AddressPolicy) => z.object({ url: feedUrl(policy) });
