import { pageLinks } from './pagination';

// Reads a pagination as text: '[5]' is the current page, '…' a gap.
const shape = (current: number, total: number) =>
  pageLinks(current, total)
    .map((l) => (l.kind === 'gap' ? '…' : l.current ? `[${l.page}]` : String(l.page)))
    .join(' ');

describe('pageLinks: 1 margin page and a 4-page range (spec 1 §9)', () => {
  test('a single page or none shows just that page or nothing', () => {
    expect(shape(1, 0)).toBe('');
    expect(shape(1, 1)).toBe('[1]');
  });

  test('few pages are all shown, without gaps', () => {
    expect(shape(1, 4)).toBe('[1] 2 3 4');
    expect(shape(3, 6)).toBe('1 2 [3] 4 5 6');
  });

  test('at the start the window is the first 4 pages, then a gap and the last page', () => {
    expect(shape(1, 20)).toBe('[1] 2 3 4 … 20');
    expect(shape(2, 20)).toBe('1 [2] 3 4 … 20');
  });

  test('in the middle: first page, gap, one page before the current and two after, gap, last page', () => {
    expect(shape(10, 20)).toBe('1 … 9 [10] 11 12 … 20');
  });

  test('at the end the window slides back to the last 4 pages', () => {
    expect(shape(20, 20)).toBe('1 … 17 18 19 [20]');
    expect(shape(19, 20)).toBe('1 … 17 18 [19] 20');
  });

  test('a gap never hides a single page: that page is shown instead', () => {
    expect(shape(4, 20)).toBe('1 2 3 [4] 5 6 … 20');
    expect(shape(16, 20)).toBe('1 … 15 [16] 17 18 19 20');
  });

  test('other margins and ranges', () => {
    const links = pageLinks(10, 20, { marginPages: 2, pageRange: 5 });
    expect(links.filter((l) => l.kind === 'page').map((l) => (l.kind === 'page' ? l.page : 0))).toEqual([1, 2, 8, 9, 10, 11, 12, 19, 20]);
  });
});
