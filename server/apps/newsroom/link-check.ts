import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { MemoryCache } from '../../cache/memory-cache';
import { pinnedLookup, refusedAddress, type AddressPolicy, type ResolvedHost } from '../../http/outbound-address';

// A story's links to other sites, checked before publishing (issue 37) under the rules an
// organiser's calendar feed and a pasted picture are fetched by (http/outbound-address.ts): no
// address of this server's own networks, each redirect checked again, the connection pinned to
// the address checked. Only the status is read: HEAD, or GET where HEAD is refused. A bad link
// is only ever a warning, so anything that goes wrong is a reason given, never an error thrown.

export interface LinkCheckLimits extends AddressPolicy {
  /** For one link, its redirects included. */
  timeoutMs: number;
  maxRedirects: number;
  /** Links checked per story; any beyond are left unchecked. */
  maxLinks: number;
  /** Links checked at once. */
  concurrency: number;
}

/** How long a link's answer is kept: reopening the publish dialog does not fetch it again. */
export const LINK_CHECK_TTL_MS = 10 * 60_000;

export const LINK_CHECK_LIMITS: Omit<LinkCheckLimits, 'allowLoopback'> = { timeoutMs: 5_000, maxRedirects: 3, maxLinks: 50, concurrency: 6 };

/** What is wrong with a link, to follow "The link to …" ("answered 404 Not Found"); null when it leads to a page. */
export type LinkProblem = string | null;

export interface LinkChecker {
  /** The first maxLinks of `urls`, each with its problem. */
  check(urls: string[]): Promise<Map<string, LinkProblem>>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** HEAD not served: the same request as GET. */
const HEAD_REFUSED = new Set([405, 501]);

/**
 * Resolved here rather than by resolveSafely, which throws one error for both: a host that does
 * not exist is a broken link, one on a private network is a link the server will not follow.
 */
async function addressOf(hostname: string, policy: AddressPolicy): Promise<ResolvedHost | { problem: string }> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const found = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await dns.lookup(host, { all: true, verbatim: true }).catch(() => []);
  if (!found.length) return { problem: 'could not be reached (no such host)' };
  const refused = found.find((a) => refusedAddress(a.address, policy));
  if (refused) return { problem: `points to a private address (${refused.address})` };
  return { address: found[0].address, family: found[0].family === 6 ? 6 : 4 };
}

function ask(url: URL, method: 'HEAD' | 'GET', host: ResolvedHost, signal: AbortSignal): Promise<{ status: number; location: string | null }> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const headers = { 'User-Agent': 'TorontoGuide-Newsroom/1.0 (+link check)', Accept: 'text/html,*/*;q=0.8' };
    const req = client.request(url, { method, headers, lookup: pinnedLookup(host), signal, agent: false }, (res) => {
      resolve({ status: res.statusCode ?? 0, location: typeof res.headers.location === 'string' ? res.headers.location : null });
      // The status is the answer: a GET's body is not read.
      res.destroy();
    });
    req.on('error', reject);
    req.end();
  });
}

async function checkLink(raw: string, limits: LinkCheckLimits): Promise<LinkProblem> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  // A name lookup cannot be aborted: it races the same time limit.
  const deadline = new Promise<never>((_resolve, reject) => controller.signal.addEventListener('abort', () => reject(new Error('timed out')), { once: true }));
  deadline.catch(() => undefined);
  try {
    let url = new URL(raw);
    for (let hop = 0; ; hop++) {
      const via = hop ? `redirects to ${url.href}, which ` : '';
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return `redirects to ${url.href}, not a web page`;
      const host = await Promise.race([addressOf(url.hostname, limits), deadline]);
      if ('problem' in host) return via + host.problem;
      let answer = await ask(url, 'HEAD', host, controller.signal);
      if (HEAD_REFUSED.has(answer.status)) answer = await ask(url, 'GET', host, controller.signal);
      if (answer.status >= 200 && answer.status < 300) return null;
      if (REDIRECTS.has(answer.status) && answer.location) {
        if (hop >= limits.maxRedirects) return `redirects more than ${limits.maxRedirects} times`;
        url = new URL(answer.location, url);
        continue;
      }
      const text = http.STATUS_CODES[answer.status];
      return `${via}answered ${answer.status}${text ? ` ${text}` : ''}`;
    }
  } catch (err) {
    if (controller.signal.aborted) return `timed out (no answer in ${limits.timeoutMs / 1000} s)`;
    if (err instanceof TypeError && (err as NodeJS.ErrnoException).code === 'ERR_INVALID_URL') return 'is not a valid web address';
    const code = (err as NodeJS.ErrnoException).code;
    return `could not be reached${code ? ` (${code})` : ''}`;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A checker whose answers are kept for a while (10 minutes), so that reopening the publish
 * dialog does not fetch every link again; a link being checked is shared by whoever asks.
 */
export function createLinkChecker(limits: LinkCheckLimits, cache: { ttlMs: number; maxEntries: number } = { ttlMs: LINK_CHECK_TTL_MS, maxEntries: 2_000 }): LinkChecker {
  const answers = new MemoryCache<string, { problem: LinkProblem }>({ name: 'story-link-checks', ...cache });
  return {
    async check(urls) {
      const queue = urls.slice(0, limits.maxLinks);
      const out = new Map<string, LinkProblem>();
      const worker = async () => {
        for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
          const link = url;
          out.set(link, (await answers.load(link, async () => ({ problem: await checkLink(link, limits) }))).problem);
        }
      };
      await Promise.all(Array.from({ length: Math.min(limits.concurrency, queue.length) }, worker));
      return out;
    },
  };
}
