// ts_headline marks matches with two private-use characters (removed from the source text
// and from the query first), so the snippet can be HTML-escaped whole and only then have the
// markers turned into <mark>: nothing from an article or from the query is ever markup.

import { escapeHtml } from '../../../shared/format/text';

export const MARK_START = '\uE000';
export const MARK_END = '\uE001';

export const HEADLINE_OPTIONS = `StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=30, MinWords=12, ShortWord=3, MaxFragments=2, FragmentDelimiter=" … "`;

export { escapeHtml };

/** Escaped HTML in which only the highlighted words are wrapped in <mark>. */
export function highlightedHtml(headline: string | null | undefined): string {
  const escaped = escapeHtml(headline ?? '');
  // Balanced by construction; an unmatched marker is dropped rather than left open.
  return escaped.replace(new RegExp(`${MARK_START}([^${MARK_END}${MARK_START}]*)${MARK_END}`, 'g'), '<mark>$1</mark>').replace(/[\uE000\uE001]/g, '');
}
