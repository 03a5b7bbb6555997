/// <reference types="jest" />
import { clearStores, STORAGE_KEYS } from '../common/storage';
import { HISTORY_TTL_MS, PATH_STACK_MAX, pushPath, readPathStack, rememberOrdering, rememberScroll, savedOrdering, savedScroll, startPath } from './navigation';

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
