// Progressive enhancement for the places pages' GET forms: choosing a category, sub-category
// or neighbourhood submits the form at once (it works with the Search/Go button without this).
document.addEventListener('change', (event) => {
  const el = event.target;
  if (!(el instanceof HTMLSelectElement)) return;
  if (!el.matches('[data-submit-on-change], [data-navigate-on-change]') || !el.value && el.name === 'neighbourhood') return;
  el.form?.requestSubmit();
});
