/** A server or form error under a field, shown as '* message' (spec 2 §8). */
export function FieldError({ id, message }: { id?: string; message?: string }) {
  if (!message) return null;
  return (
    <p className="field-error" id={id} role="alert">
      * {message}
    </p>
  );
}
