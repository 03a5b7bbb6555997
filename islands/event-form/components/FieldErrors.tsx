// The error lines under a field and the aria attributes that point the field at them; the
// messages come from the server's 400 (keyed by its field names), shown where the field is.

export type FieldErrorMap = Record<string, string[]>;

export function Errors({ keys, errors }: { keys: string[]; errors: FieldErrorMap }) {
  const messages = keys.flatMap((k) => (errors[k] ?? []).map((m) => [k, m] as const));
  if (!messages.length) return null;
  return (
    <p className="field-error" id={`${keys[0]}-error`} role="alert">
      {messages.map(([k, m], i) => (
        <span key={`${k}${i}`}>
          {i > 0 && <br />}* {m}
        </span>
      ))}
    </p>
  );
}

/** aria-invalid and aria-describedby (the first key's error line) when any of the keys has an error. */
export function invalidProps(errors: FieldErrorMap, ...keys: string[]) {
  const k = keys.find((key) => errors[key]?.length);
  return k ? { 'aria-invalid': true as const, 'aria-describedby': `${keys[0]}-error` } : {};
}
