import { requestPathAndQuery } from './request-path';

// The path and query a request asked for: the host of an absolute-form request line is dropped,
// a path is kept as a path (even one starting with `//`), and nothing a client sends makes it throw.

test.each([
  ['/about?x=1', '/about?x=1'],
  ['http://evil.example/about?x=1', '/about?x=1'],
  ['//', '//'],
  ['//evil.example/about', '//evil.example/about'],
  ['///', '///'],
  ['/\\', '//'],
  ['//[', '//['],
  ['*', '/*'],
  ['http://', 'http://'],
  ['http://[', 'http://['],
])('%s is read as %s', (url, expected) => {
  expect(requestPathAndQuery({ url })).toBe(expected);
  expect(requestPathAndQuery({ url: '/ignored', originalUrl: url })).toBe(expected);
});
