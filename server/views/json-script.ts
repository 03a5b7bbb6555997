// JSON placed inside <script type="application/json"> must not be able to close the tag or
// open a comment; escaping <, >, & and the JavaScript line separators makes it inert.
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value ?? null)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
