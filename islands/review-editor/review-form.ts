// The review page's form as the editor island uses it (templates/places-desk/review.njk): the
// textarea it covers, the hidden review_doc it fills on submit and review_version, the saved
// version the form was made on. Kept out of the component, which only calls these.

export interface ReviewForm {
  /** The textarea's text: the review to start from when there is no document. */
  text(): string;
  /** The editor takes the textarea's place; answers the undoing of that. */
  cover(): () => void;
  /** Before the form goes: `read` gives the document's JSON and its words for the fields. */
  onSubmit(read: () => { json: string; text: string }): () => void;
  version(): string;
  setVersion(version: string): void;
}

export function reviewForm(el: HTMLElement): ReviewForm | null {
  const form = el.closest('form');
  const textarea = form?.querySelector<HTMLTextAreaElement>('textarea[name="review"]');
  const docField = form?.querySelector<HTMLInputElement>('input[name="review_doc"]');
  const versionField = form?.querySelector<HTMLInputElement>('input[name="review_version"]') ?? null;
  if (!form || !textarea || !docField) return null;
  const help = document.getElementById('review-review-help');
  return {
    text: () => textarea.value,
    cover() {
      textarea.hidden = true;
      if (help) help.hidden = true;
      return () => {
        textarea.hidden = false;
        if (help) help.hidden = false;
      };
    },
    onSubmit(read) {
      const submit = () => {
        const { json, text } = read();
        docField.value = json;
        textarea.value = text;
      };
      form.addEventListener('submit', submit);
      return () => form.removeEventListener('submit', submit);
    },
    version: () => versionField?.value ?? '',
    setVersion(version) {
      if (versionField) versionField.value = version;
    },
  };
}
