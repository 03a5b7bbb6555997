/// <reference types="jest" />
import { clearStores, STORAGE_KEYS } from '../common/storage';
import {
  HISTORY_ENTRIES_MAX, HISTORY_TTL_MS, PATH_STACK_MAX, pageArrival, pushPath, readPathStack, rememberOrdering, rememberScroll, restoresPlace, routeArrival, savedOrdering, savedScroll, startPath,
} from './navigation';
import { pageLoadedBy } from './testing';

// The path stack and history cache rules (spec 1 §3 local storage; issue 13 item 4).

const KNOWN = ['/home/', '/favourites/', '/articles/'];

describe('dashboard navigation state', () => {
  beforeEach(() => localStorage.clear());

  test('the path stack keeps each path once, newest last, and at most PATH_STACK_MAX', () => {
    pushPath('/home/');
    pushPath('/favourites/');
    pushPath('/home/');
    expect(readPathStack()).toEqual(['/favourites/', '/home/']);
    for (let i = 0; i < PATH_STACK_MAX + 5; i++) pushPath(`/p${i}/`);
    expect(readPathStack()).toHaveLength(PATH_STACK_MAX);
    expect(readPathStack().at(-1)).toBe(`/p${PATH_STACK_MAX + 4}/`);
  });

  test('a visit with no route starts where the member last was; #/, #/_=_ and a route given do not', () => {
    expect(startPath('', KNOWN)).toBeNull();
    pushPath('/favourites/');
    expect(startPath('', KNOWN)).toBe('/favourites/');
    expect(startPath('#', KNOWN)).toBe('/favourites/');
    expect(startPath('#/', KNOWN)).toBeNull();
    expect(startPath('#/_=_', KNOWN)).toBeNull();
    expect(startPath('#/articles/', KNOWN)).toBeNull();
    // A path no longer offered (its section switched off) is not restored.
    pushPath('/videos/');
    expect(startPath('', KNOWN)).toBeNull();
  });

  test('scroll positions are kept per path for a day; sort tabs per list', () => {
    const now = Date.now();
    rememberScroll('/articles/', 812.4, now);
    expect(savedScroll('/articles/', now + 1000)).toBe(812);
    expect(savedScroll('/articles/', now + HISTORY_TTL_MS + 1)).toBe(0);
    expect(savedScroll('/favourites/', now)).toBe(0);
    expect(savedOrdering('articleBookmarks')).toBeUndefined();
    rememberOrdering('articleBookmarks', 'article_name');
    expect(savedOrdering('articleBookmarks')).toBe('article_name');
  });

  test('a refresh, a Back into the page and a new navigation are told apart by the Navigation Timing type', () => {
    expect(pageArrival()).toBe('new'); // no entry at all
    for (const [type, arrival] of [['reload', 'reload'], ['back_forward', 'back'], ['navigate', 'new']] as const) {
      const unload = pageLoadedBy(type);
      expect(pageArrival()).toBe(arrival);
      unload();
    }
    // Within the page: popstate (the router's POP) is Back or Forward; the menu or a link is new.
    expect(routeArrival('POP')).toBe('back');
    expect(routeArrival('PUSH')).toBe('new');
    expect(routeArrival('REPLACE')).toBe('new');
    expect((['reload', 'back', 'resume', 'new'] as const).map(restoresPlace)).toEqual([true, true, true, false]);
  });

  test("a history entry keeps its own scroll: a later visit to the path does not move an earlier entry's", () => {
    const now = Date.now();
    rememberScroll('/favourites/', 900, now, 'entry-a');
    rememberScroll('/favourites/', 0, now + 1, 'entry-b');
    expect(savedScroll('/favourites/', now + 2, 'entry-a')).toBe(900);
    expect(savedScroll('/favourites/', now + 2, 'entry-b')).toBe(0);
    // An entry never scrolled is the top; a visit without an entry (resumed) takes the path's last.
    expect(savedScroll('/favourites/', now + 2, 'entry-never')).toBe(0);
    expect(savedScroll('/favourites/', now + 2)).toBe(0);
    rememberScroll('/favourites/', 300, now + 3);
    expect(savedScroll('/favourites/', now + 4)).toBe(300);
    // Only the newest entries are kept.
    for (let i = 0; i < HISTORY_ENTRIES_MAX; i++) rememberScroll('/articles/', 10 + i, now + 10 + i, `k${i}`);
    expect(savedScroll('/favourites/', now + 100, 'entry-a')).toBe(0);
    expect(savedScroll('/articles/', now + 100, `k${HISTORY_ENTRIES_MAX - 1}`)).toBe(10 + HISTORY_ENTRIES_MAX - 1);
  });

  test('garbage in storage reads as nothing; logout clears both', () => {
    localStorage.setItem(STORAGE_KEYS.dashboardPathStack, '{"x":1}');
    localStorage.setItem(STORAGE_KEYS.dashboardHistory, '[1,2]');
    expect(readPathStack()).toEqual([]);
    expect(savedScroll('/home/')).toBe(0);
    pushPath('/home/');
    rememberScroll('/home/', 10);
    clearStores();
    expect(localStorage.getItem(STORAGE_KEYS.dashboardPathStack)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.dashboardHistory)).toBeNull();
  });
});
