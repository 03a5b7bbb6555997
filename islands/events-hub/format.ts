// Event times as the hub's server-rendered cards print them ('Tue, Nov 24 · 7:00 pm'), in
// the city's time zone whatever the reader's.

export function eventWhen(iso: string, allDay: boolean, timeZone: string): string {
  if (!iso) return '';
  const at = new Date(iso);
  const day = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone }).format(at);
  if (allDay) return day;
  const time = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', hour12: true, timeZone }).format(at).toLowerCase();
  return `${day} · ${time}`;
}

/** The site-relative path of an absolute share URL (links stay on the origin the page came from). */
export function pathOf(url: string): string {
  try {
    const u = new URL(url, 'http://local.invalid');
    return u.pathname + u.search;
  } catch {
    return url;
  }
}
