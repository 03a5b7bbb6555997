import { safeHref } from '../../../shared/newsroom';

// What a writer types in a link dialog (the story editor's and the place review's): a bare
// domain gets https://, and only what safeHref allows becomes a link.

export const TYPED_LINK_ERROR = 'Give a web address (https://…), a mailto: address or a path on this site (/…).';

/** The link for a typed address, or null when it is not one (show TYPED_LINK_ERROR). */
export function typedLinkHref(typed: string): string | null {
  const t = typed.trim();
  return safeHref(/^[\w.-]+\.[a-z]{2,}(\/|$)/i.test(t) ? `https://${t}` : t);
}
