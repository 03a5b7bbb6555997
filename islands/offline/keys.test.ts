import { cachesToForget, isShareablePage, memberCacheName, memberIdFromDashboardHtml, memberOfCaches, navigationKind, staleCaches, worthAGuestCopy, ASSET_CACHE, PAGE_CACHE } from './keys';

// The service worker's rules for what it keeps and whose it is (islands/offline/sw/).

const res = (status: number, cacheControl: string | null, type = 'basic', contentType = 'text/html; charset=utf-8') =>
  ({ status, type, headers: new Headers({ ...(cacheControl ? { 'Cache-Control': cacheControl } : {}), 'Content-Type': contentType }) }) as unknown as Response;

describe('caches keyed by member', () => {
  test('one cache per member; the one kept is found again from the names', () => {
    expect(memberCacheName(7)).not.toBe(memberCacheName(8));
    expect(memberOfCaches([ASSET_CACHE, PAGE_CACHE, memberCacheName(42)])).toBe(42);
    expect(memberOfCaches([ASSET_CACHE, PAGE_CACHE])).toBeNull();
  });

  test('a change of member forgets every other member; signing out forgets them all; shared caches stay', () => {
    const names = [ASSET_CACHE, PAGE_CACHE, memberCacheName(1), memberCacheName(2)];
    expect(cachesToForget(names, 2)).toEqual([memberCacheName(1)]);
    expect(cachesToForget(names, null)).toEqual([memberCacheName(1), memberCacheName(2)]);
    expect(cachesToForget(names, 3)).toEqual([memberCacheName(1), memberCacheName(2)]);
  });

  test("an older worker's caches go on activation, never a member's or the current ones", () => {
    expect(staleCaches(['tcg-pages-v0', ASSET_CACHE, PAGE_CACHE, memberCacheName(5), 'someone-else'])).toEqual(['tcg-pages-v0']);
  });
});

describe('the page cache', () => {
  test('keeps only whole pages the server did not mark private or no-store', () => {
    expect(isShareablePage(res(200, 'public, max-age=60'))).toBe(true);
    expect(isShareablePage(res(200, null))).toBe(true);
    expect(isShareablePage(res(200, 'private, max-age=60'))).toBe(false);
    expect(isShareablePage(res(200, 'private, no-store'))).toBe(false);
    expect(isShareablePage(res(200, 'no-store'))).toBe(false);
    expect(isShareablePage(res(200, 'Private'))).toBe(false);
    expect(isShareablePage(res(404, 'public, max-age=60'))).toBe(false);
    expect(isShareablePage(res(200, 'public', 'opaque'))).toBe(false);
    expect(isShareablePage(res(200, 'public', 'basic', 'application/json'))).toBe(false);
  });

  test("a member's private page (session cookie renewed) is worth a guest copy; a no-store one never", () => {
    expect(worthAGuestCopy(res(200, 'private, max-age=60'))).toBe(true);
    expect(worthAGuestCopy(res(200, 'private, no-store'))).toBe(false);
    expect(worthAGuestCopy(res(200, 'public, max-age=60'))).toBe(false);
  });

  test('articles and places are pages; member areas, forms, searches and the API are not', () => {
    const kind = (p: string) => navigationKind(new URL(p, 'http://127.0.0.1:3000'));
    expect(kind('/news/2026/11/a-story/')).toBe('page');
    expect(kind('/restaurants/green-gables/')).toBe('page');
    expect(kind('/events/jazz-night/')).toBe('page');
    expect(kind('/accounts/dashboard/')).toBe('dashboard');
    for (const p of ['/accounts/login', '/profiles/logout', '/staff/', '/api/v2/todos/', '/events/add/', '/search/?q=pizza', '/restaurants/?page=2', '/offline/']) expect([p, kind(p)]).toEqual([p, 'other']);
  });
});

describe('whose dashboard a page is', () => {
  const page = (state: unknown) => `<html><script id="initial-state" type="application/json">${JSON.stringify(state)}</script></html>`;
  test('read from the state the server printed for the dashboard island', () => {
    expect(memberIdFromDashboardHtml(page({ navbar: {}, dashboard: { profile: { id: 31, email: 'a@b.c' } } }))).toBe(31);
    expect(memberIdFromDashboardHtml(page({ dashboard: {} }))).toBeNull();
    expect(memberIdFromDashboardHtml(page({ dashboard: { profile: { id: '31' } } }))).toBeNull();
    expect(memberIdFromDashboardHtml('<html>no state</html>')).toBeNull();
    expect(memberIdFromDashboardHtml('<script id="initial-state" type="application/json">{oops</script>')).toBeNull();
  });
});
