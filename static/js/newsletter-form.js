// Progressive enhancement for the compact newsletter forms (partials/newsletter-form.njk).
// Without JavaScript they are GET forms to /newsletters/, where the full form confirms the
// choices. With it they sign up in place: POST /api/v2/profiles/guest-newsletters/ with the
// csrftoken cookie echoed in X-CSRFToken, then the success message replaces the form.
(function () {
  'use strict';
  function csrfToken() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : '';
  }
  function enhance(form) {
    var panel = form.closest('[data-newsletter-panel]');
    var error = form.querySelector('[data-newsletter-error]');
    var button = form.querySelector('button[type="submit"]');
    form.addEventListener('submit', function (event) {
      var email = form.elements.email.value.trim();
      var token = csrfToken();
      if (!token || !window.fetch) return; // fall back to the plain GET form
      event.preventDefault();
      if (!form.elements.email.checkValidity()) {
        form.elements.email.setAttribute('aria-invalid', 'true');
        form.elements.email.reportValidity();
        return;
      }
      button.disabled = true;
      error.hidden = true;
      fetch('/api/v2/profiles/guest-newsletters/', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-CSRFToken': token, Accept: 'application/json' },
        body: JSON.stringify({ email: email, news: true }),
      })
        .then(function (res) {
          return res.json().then(function (body) { return { ok: res.ok, body: body }; });
        })
        .then(function (result) {
          if (result.ok) {
            form.hidden = true;
            var success = panel && panel.querySelector('[data-newsletter-success]');
            if (success) success.hidden = false;
            return;
          }
          var messages = result.body && result.body.email;
          error.textContent = messages && messages[0] ? messages[0] : 'Sorry, that did not work. Please try again.';
          error.hidden = false;
          form.elements.email.setAttribute('aria-invalid', 'true');
        })
        .catch(function () {
          error.textContent = 'Sorry, that did not work. Please try again.';
          error.hidden = false;
        })
        .then(function () { button.disabled = false; });
    });
  }
  var forms = document.querySelectorAll('form[data-newsletter-form]');
  for (var i = 0; i < forms.length; i++) enhance(forms[i]);
})();
