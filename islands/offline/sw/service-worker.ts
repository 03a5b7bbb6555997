import { registerRoute, setCatchHandler } from 'workbox-routing';
import { CacheFirst, NetworkFirst, StaleWhileRevalidate } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import {
  ASSET_CACHE,
  ASSET_CACHE_MAX,
  cachesToForget,
  DASHBOARD_PATH,
  GUEST_COPY_FRESH_MS,
  isShareablePage,
  isSignOutPath,
  MEMBER_REQUEST_PATH,
  memberCacheName,
  memberIdFromDashboardHtml,
  memberOfCaches,
  navigationKind,
  OFFLINE_CACHE,
  OFFLINE_PAGE_PATH,
  PAGE_CACHE,
  PAGE_CACHE_MAX,
  STATIC_CACHE,
  STATIC_CACHE_MAX,
  staleCaches,
  worthAGuestCopy,
} from '../keys';
import { forgetMembers } from '../db';

// The site's service worker (issue 28 part 2), built by vite.config.ts into static/dist/sw/sw.js
// and served at /sw.js (server/http/pwa.ts), so it controls the whole site:
// - build files (/static/dist/, named by content) cache-first; other /static/ files
//   stale-while-revalidate;
// - pages the same for everybody (articles, places, events…) network-first into a page cache
//   of the last 30, never an answer marked private or no-store; a member's page sent private
//   only for their session cookie is kept as the cookieless copy a guest gets;
// - the member's dashboard network-first into that member's own cache (the one personal page
//   kept), which goes when the member signs out, deletes the account or another member signs in
//   here (seen on the shared member request, GET /api/v2/profiles/hi/);
// - any other page offline: the offline page.
// The saved lists themselves are kept by the dashboard in IndexedDB (islands/offline/db.ts),
// which this worker clears with the caches.

// Only the service worker API this file uses (the islands' tsconfig has the DOM's types, not
// the WebWorker ones, which clash with them).
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface MessageEventWithPorts extends ExtendableEvent {
  data: unknown;
  ports: readonly MessagePort[];
}
declare const self: {
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEventWithPorts) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  location: Location;
};

const ORIGIN = self.location.origin;
const sameOrigin = (url: URL) => url.origin === ORIGIN;
const cacheMatch = { ignoreVary: true };

// ## Keeping the caches to one member

/** The member whose dashboard is kept here, or null. */
async function currentMember(): Promise<number | null> {
  return memberOfCaches(await caches.keys());
}

/** `memberId` is who is signed in now (null: nobody): everyone else's pages and lists go. */
async function keepOnly(memberId: number | null): Promise<void> {
  const names = await caches.keys();
  await Promise.all(cachesToForget(names, memberId).map((n) => caches.delete(n)));
  await forgetMembers(memberId).catch(() => undefined);
}

// ## Files

registerRoute(
  ({ url, request }) => sameOrigin(url) && request.method === 'GET' && url.pathname.startsWith('/static/dist/'),
  new CacheFirst({ cacheName: ASSET_CACHE, plugins: [new ExpirationPlugin({ maxEntries: ASSET_CACHE_MAX })] }),
);
registerRoute(
  ({ url, request }) => sameOrigin(url) && request.method === 'GET' && url.pathname.startsWith('/static/'),
  new StaleWhileRevalidate({ cacheName: STATIC_CACHE, plugins: [new ExpirationPlugin({ maxEntries: STATIC_CACHE_MAX })] }),
);

// ## Pages the same for everybody

const pageStrategy = new NetworkFirst({
  cacheName: PAGE_CACHE,
  // A slow connection shows the kept copy after 4 s rather than a blank screen.
  networkTimeoutSeconds: 4,
  matchOptions: cacheMatch,
  plugins: [
    {
      cacheWillUpdate: async ({ request, response, event }) => {
        if (isShareablePage(response)) return response;
        if (worthAGuestCopy(response) && request.credentials !== 'omit') event?.waitUntil(keepGuestCopyIfOld(request.url));
        return null;
      },
    },
    new ExpirationPlugin({ maxEntries: PAGE_CACHE_MAX }),
  ],
});

async function keepGuestCopyIfOld(url: string): Promise<void> {
  const kept = await caches.match(url, { cacheName: PAGE_CACHE, ignoreVary: true });
  const age = kept ? Date.now() - Date.parse(kept.headers.get('date') ?? '') : Number.NaN;
  if (age < GUEST_COPY_FRESH_MS) return;
  await keepGuestCopy(url);
}

/** The page as a guest gets it (no cookie sent), for the page cache; nothing of the member's. */
async function keepGuestCopy(url: string): Promise<void> {
  const request = new Request(url, { credentials: 'omit', redirect: 'manual', headers: { Accept: 'text/html' } });
  await pageStrategy.handleAll({ request, event: new Event('fetch') as never })[1].catch(() => undefined);
}

const offlinePage = async (): Promise<Response> =>
  (await caches.match(OFFLINE_PAGE_PATH, { cacheName: OFFLINE_CACHE })) ?? new Response("You're offline.", { status: 503, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });

registerRoute(
  ({ url, request }) => sameOrigin(url) && request.mode === 'navigate' && navigationKind(url) === 'page',
  async (options) => {
    try {
      return await pageStrategy.handle(options);
    } catch {
      return offlinePage();
    }
  },
);

// ## The member's dashboard

/** The dashboard as the server rendered it for its member, kept in that member's cache. */
async function keepDashboard(response: Response): Promise<Response> {
  const html = await response.text();
  const copy = () => new Response(html, { status: response.status, statusText: response.statusText, headers: response.headers });
  const memberId = memberIdFromDashboardHtml(html);
  if (response.status === 200 && memberId) {
    await keepOnly(memberId);
    await (await caches.open(memberCacheName(memberId))).put(DASHBOARD_PATH, copy());
  }
  return copy();
}

registerRoute(
  ({ url, request }) => sameOrigin(url) && request.mode === 'navigate' && navigationKind(url) === 'dashboard',
  async ({ request, event }) => {
    let response: Response;
    try {
      response = await fetch(request);
    } catch {
      const memberId = await currentMember();
      const kept = memberId ? await (await caches.open(memberCacheName(memberId))).match(DASHBOARD_PATH, cacheMatch) : undefined;
      return kept ?? offlinePage();
    }
    // Sent to sign in: nobody is signed in here any more.
    if (response.type === 'opaqueredirect' || response.redirected) {
      (event as ExtendableEvent | undefined)?.waitUntil(keepOnly(null));
      return response;
    }
    return response.ok ? keepDashboard(response) : response;
  },
);

// ## Who is signed in

registerRoute(
  ({ url, request }) => sameOrigin(url) && request.method === 'GET' && url.pathname === MEMBER_REQUEST_PATH,
  async ({ request, event }) => {
    const response = await fetch(request);
    const read = async () => {
      if (response.status === 401 || response.status === 403) return keepOnly(null);
      if (!response.ok) return;
      const id = ((await response.clone().json()) as { id?: unknown }).id;
      if (typeof id === 'number' && id !== (await currentMember())) await keepOnly(id);
    };
    (event as ExtendableEvent | undefined)?.waitUntil(read().catch(() => undefined));
    return response;
  },
);

registerRoute(
  ({ url }) => sameOrigin(url) && isSignOutPath(url.pathname),
  async ({ request, event }) => {
    const response = await fetch(request);
    if (response.ok || response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
      (event as ExtendableEvent | undefined)?.waitUntil(keepOnly(null));
    }
    return response;
  },
  'POST',
);

// Any other page: the network, or the offline page.
setCatchHandler(async ({ request }) => (request.mode === 'navigate' ? offlinePage() : Response.error()));
registerRoute(
  ({ url, request }) => sameOrigin(url) && request.mode === 'navigate' && navigationKind(url) === 'other',
  async ({ request }) => fetch(request),
);

// ## Messages from the pages (islands/offline/main.tsx, islands/offline/dashboard.ts), answered
// on the port they send once done

interface PageMessage {
  type: 'page';
  url: string;
  resources: string[];
}
interface MemberMessage {
  type: 'member';
  id: number;
}

/** The files a page loaded before this worker controlled it, so it can be shown offline too. */
async function keepFiles(urls: string[]): Promise<void> {
  for (const raw of urls.slice(0, 80)) {
    const url = new URL(raw, ORIGIN);
    if (!sameOrigin(url) || !url.pathname.startsWith('/static/')) continue;
    const cacheName = url.pathname.startsWith('/static/dist/') ? ASSET_CACHE : STATIC_CACHE;
    const cache = await caches.open(cacheName);
    if (await cache.match(url.href)) continue;
    const res = await fetch(url.href).catch(() => null);
    if (res?.ok) await cache.put(url.href, res);
  }
}

async function onMessage(data: PageMessage | MemberMessage, event: ExtendableEvent): Promise<void> {
  if (data.type === 'member') {
    if (!Number.isInteger(data.id) || data.id <= 0) return;
    // The dashboard the page showed may have come before this worker: fetch it for the cache,
    // which keeps it only if the server rendered it for this very member.
    const kept = await (await caches.open(memberCacheName(data.id))).match(DASHBOARD_PATH, cacheMatch);
    if (kept) return;
    const res = await fetch(DASHBOARD_PATH, { credentials: 'same-origin', redirect: 'manual' }).catch(() => null);
    if (res?.ok) await keepDashboard(res);
    return;
  }
  if (data.type === 'page') {
    await keepFiles(Array.isArray(data.resources) ? data.resources.filter((u): u is string => typeof u === 'string') : []);
    const url = new URL(data.url, ORIGIN);
    if (sameOrigin(url) && navigationKind(url) === 'page' && !(await caches.match(url.href, { cacheName: PAGE_CACHE, ignoreVary: true }))) {
      await pageStrategy.handleAll({ request: new Request(url.href, { credentials: 'same-origin', headers: { Accept: 'text/html' } }), event: event as never })[1].catch(() => undefined);
    }
  }
}

self.addEventListener('message', (event) => {
  const data = event.data as PageMessage | MemberMessage | null;
  if (!data || typeof data !== 'object' || typeof (data as { type?: unknown }).type !== 'string') return;
  const done = onMessage(data, event)
    .catch(() => undefined)
    .then(() => event.ports[0]?.postMessage({ done: true }));
  event.waitUntil(done);
});

// ## Life cycle

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(OFFLINE_CACHE)
      .then((cache) => cache.add(new Request(OFFLINE_PAGE_PATH, { cache: 'reload' })))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(staleCaches(names).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});
