import { PAGINATION } from './constants';

// Which page numbers a numbered pagination shows (spec 1 §9: 1 margin page, a 4-page range):
// the first and last `marginPages`, a window of `pageRange` pages holding the current one
// (one page before it, the rest after, slid inward at either end), and a gap for what is left
// out. A gap that would hide a single page shows that page instead: '…' must save space.

export type PageLink = { kind: 'page'; page: number; current: boolean } | { kind: 'gap' };

export function pageLinks(current: number, total: number, opts: { marginPages: number; pageRange: number } = PAGINATION): PageLink[] {
  if (total < 1) return [];
  const shown = new Set<number>();
  for (let n = 1; n <= Math.min(opts.marginPages, total); n++) shown.add(n);
  for (let n = Math.max(1, total - opts.marginPages + 1); n <= total; n++) shown.add(n);
  const range = Math.max(1, Math.min(opts.pageRange, total));
  let start = current - Math.floor((range - 1) / 2);
  start = Math.max(1, Math.min(start, total - range + 1));
  for (let n = start; n < start + range; n++) shown.add(n);

  const pages = [...shown].sort((a, b) => a - b);
  const links: PageLink[] = [];
  const add = (page: number) => links.push({ kind: 'page', page, current: page === current });
  pages.forEach((page, i) => {
    const before = pages[i - 1];
    if (before !== undefined && page - before === 2) add(page - 1);
    else if (before !== undefined && page - before > 2) links.push({ kind: 'gap' });
    add(page);
  });
  return links;
}
