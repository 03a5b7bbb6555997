import { PWA_PATHS, SIGNED_IN_COOKIE } from '../../shared/constants';
import { isMemberCache, OFFLINE_DB } from './keys';

// Every page's small script for the installable site (issue 28 part 2): once the page has
// loaded (never before its first paint), it registers the service worker (/sw.js, built with
// Workbox from islands/offline/sw/) and tells it which files the page used, so the page can be
// shown offline next time. On a page where nobody is signed in (after logging out, an account
// deleted, a session that ran out) it deletes what this browser kept of a member: their
// dashboard's cache and saved lists. Plain DOM calls: every page pays for this file.

const signedIn = () => document.cookie.split('; ').some((c) => c.startsWith(`${SIGNED_IN_COOKIE}=`));

async function forgetMember(): Promise<void> {
  const names = await caches.keys();
  await Promise.all(names.filter(isMemberCache).map((n) => caches.delete(n)));
  // Most guests never kept anything: delete the lists' database only when it is there (where
  // the browser can tell; otherwise always).
  const databases = await indexedDB.databases?.().catch(() => undefined);
  if (databases && !databases.some((d) => d.name === OFFLINE_DB)) return;
  await new Promise<void>((resolve) => {
    const req = indexedDB.deleteDatabase(OFFLINE_DB);
    req.onsuccess = req.onerror = req.onblocked = () => resolve();
  });
}

async function start(): Promise<void> {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  if (!signedIn() && 'caches' in window) await forgetMember().catch(() => undefined);
  // A page the worker already answered needs nothing more from it; only a page loaded before
  // the worker controlled it (a first visit) tells it which files to keep.
  const controlled = navigator.serviceWorker.controller !== null;
  await navigator.serviceWorker.register(PWA_PATHS.serviceWorker, { scope: '/', updateViaCache: 'none' });
  if (controlled) return;
  const { active } = await navigator.serviceWorker.ready;
  const resources = performance.getEntriesByType('resource').map((e) => e.name);
  active?.postMessage({ type: 'page', url: location.href, resources });
}

const later = () => setTimeout(() => void start().catch(() => undefined));
if (document.readyState === 'complete') later();
else window.addEventListener('load', later, { once: true });
