/** The page's <main> element, so assertions are not confused by the navbar's own links. */
export function mainOf(html: string): string {
  const start = html.indexOf('<main');
  const end = html.indexOf('</main>');
  return start === -1 || end === -1 ? '' : html.slice(start, end);
}
