import { safeNextPath } from './safe-redirect';

describe('safeNextPath', () => {
  test.each([
    ['/', '/'],
    ['/news/?page=2', '/news/?page=2'],
    ['/about#team', '/about#team'],
    ['/search?q=100%25', '/search?q=100%25'],
    ['/a/./b/../c', '/a/c'],
    ['/events/%E2%9C%93/', '/events/%E2%9C%93/'],
    ['/next?url=//evil.example', '/next?url=//evil.example'],
  ])('keeps a same-site path %p as %p', (next, kept) => {
    expect(safeNextPath(next, 'FALLBACK')).toBe(kept);
  });

  test.each([
    // other sites, as they are
    '//evil.example/phish',
    'https://evil.example/',
    'http:/evil.example',
    'javascript:alert(1)',
    'evil.example',
    '/\\evil.example',
    '/\\/evil.example',
    // dot segments that the URL parser collapses into `//`
    '/.//evil.example/phish',
    '/./\\evil.example',
    '/a/..//evil.example',
    '/%2e//evil.example',
    '/%2E%2E//evil.example',
    // percent-encoded slashes and backslashes, once or twice
    '/%2F%2Fevil.example',
    '/%2f/evil.example',
    '/%5Cevil.example',
    '/%5C%5Cevil.example',
    '/%252F%252Fevil.example',
    '/.%2F/evil.example',
    // tabs, newlines and other control characters, raw or encoded
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '/%09/evil.example',
    '/%0A/evil.example',
    '/%00',
    '/ok\u0000',
    // malformed or out of bounds
    '/%E0%A4%A',
    '',
    `/${'a'.repeat(2001)}`,
  ])('falls back for %p', (next) => {
    expect(safeNextPath(next, 'FALLBACK')).toBe('FALLBACK');
  });

  test.each([undefined, null, 42, ['/a'], { next: '/a' }])('falls back for a non-string %p', (next) => {
    expect(safeNextPath(next, 'FALLBACK')).toBe('FALLBACK');
  });
});
