import { NAV_TITLE } from '../constants';

/** 'No articles' / '1 article' / '3 articles' (spec 1 §2: zero reads 'No ...'). */
export function pluralize(count: number, singular: string, plural = `${singular}s`): string {
  if (!count) return `No ${plural}`;
  return `${count} ${count === 1 ? singular : plural}`;
}

/** Just the word, for headings such as 'Saved Article(s)'. */
export function pluralWord(count: number, singular: string, plural = `${singular}s`): string {
  return count === 1 ? singular : plural;
}

/** Cuts at a word boundary and adds an ellipsis. */
export function truncate(text: string, length: number, ellipsis = '…'): string {
  if (text.length <= length) return text;
  const cut = text.slice(0, length);
  const space = cut.lastIndexOf(' ');
  return (space > length * 0.6 ? cut.slice(0, space) : cut).trimEnd() + ellipsis;
}

/** Article titles in the nav bar: 64 characters plus ' ...' when longer than 68 (spec 2 §2). */
export function navTitle(title: string): string {
  if (title.length <= NAV_TITLE.truncateOver) return title;
  return title.slice(0, NAV_TITLE.truncateAt) + NAV_TITLE.ellipsis;
}

/** The CSS length class of a title: 'short', 'medium', 'long', 'x-long' or 'xx-long'. */
export function titleLengthClass(title: string): string {
  const n = title.length;
  if (n < 50) return 'title-short';
  if (n < 80) return 'title-medium';
  if (n < 90) return 'title-long';
  if (n < 100) return 'title-x-long';
  return 'title-xx-long';
}

export function slugify(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/&/g, ' and ')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80)
      .replace(/-+$/g, '') || 'item'
  );
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML that shows it literally (in an element or a quoted attribute). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}
