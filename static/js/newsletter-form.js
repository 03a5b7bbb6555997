// Progressive enhancement for the compact newsletter forms (partials/newsletter-form.njk).
// Without JavaScript they are GET forms to /newsletters/, where the full form confirms the
// choices. With it they sign up in place: POST /api/v2/profiles/guest-newsletters/ with the
// csrftoken cookie echoed in X-CSRFToken, then the success message replaces the form. The
// page carries no token (it is the same for everybody, and a first visit gets no cookie), so
// a visitor without the cookie gets one from GET /api/v2/csrf/ when they sign up.
(function () {
  'use strict';
  function csrfToken() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : '';
  }
  /** The token, asked for (which sets the cookie) when there is none yet; '' when that fails. */
  function ensureCsrfToken() {
    var token = csrfToken();
    if (token) return Promise.resolve(token);
    return fetch('/api/v2/csrf/', { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then(function (res) { return res.ok ? res.json() : {}; })
      .then(function (body) { return csrfToken() || (body && typeof body.csrftoken === 'string' ? body.csrftoken : ''); })
      .catch(function () { return ''; });
  }
  function enhance(form) {
    var panel = form.closest('[data-newsletter-panel]');
    var error = form.querySelector('[data-newsletter-error]');
    var button = form.querySelector('button[type="submit"]');
    form.addEventListener('submit', function (event) {
      var email = form.elements.email.value.trim();
      if (!window.fetch) return; // fall back to the plain GET form
      event.preventDefault();
      if (!form.elements.email.checkValidity()) {
        form.elements.email.setAttribute('aria-invalid', 'true');
        form.elements.email.reportValidity();
        return;
      }
      button.disabled = true;
      error.hidden = true;
      ensureCsrfToken()
        .then(function (token) {
          // No token to be had: the plain GET form, whose page carries one, still signs them up.
          if (!token) {
            form.submit();
            return new Promise(function () {}); // the page is leaving: nothing more to show here
          }
          return fetch('/api/v2/profiles/guest-newsletters/', {
            method: 'POST',
            credentials: 'same-origin',
            headers: { 'Content-Type': 'application/json', 'X-CSRFToken': token, Accept: 'application/json' },
            body: JSON.stringify({ email: email, news: true }),
          });
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
