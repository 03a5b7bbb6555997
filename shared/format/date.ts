// 'November 24, 2026': a date as the site prints it, in the site's time zone whatever the
// reader's. An unknown time zone falls back to the reader's rather than failing the page.

const LONG: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'long', day: 'numeric' };
const formats = new Map<string, Intl.DateTimeFormat>();

/** '' for a missing or unreadable date. */
export function longDate(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  let format = formats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', { ...LONG, timeZone });
    } catch {
      format = new Intl.DateTimeFormat('en-US', LONG);
    }
    formats.set(timeZone, format);
  }
  return format.format(d);
}
