// Progressive enhancement for the contest entry form (templates/contests/entry-form.njk).
// Without JavaScript it is a GET form to the private /contests/<name>/enter/ page, which sends
// the entry with its CSRF token. With it, the same form posts there at once: the csrftoken
// cookie's value goes in as the csrfmiddlewaretoken field, as the server's CSRF check expects.
// The contest page is the same for everybody and a first visit gets no cookie, so a visitor
// without one asks GET /api/v2/csrf/ first (as the newsletter form does); a guest's post is
// then answered with the login page, which comes back to the entry.
(function () {
  'use strict';
  function csrfToken() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : '';
  }
  /** The token, asked for (which sets the cookie) when there is none yet; '' when that fails. */
  function ensureCsrfToken() {
    var token = csrfToken();
    if (token || !window.fetch) return Promise.resolve(token);
    return fetch('/api/v2/csrf/', { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then(function (res) { return res.ok ? res.json() : {}; })
      .then(function (body) { return csrfToken() || (body && typeof body.csrftoken === 'string' ? body.csrftoken : ''); })
      .catch(function () { return ''; });
  }
  function postWith(form, token) {
    var field = form.querySelector('input[name="csrfmiddlewaretoken"]') || document.createElement('input');
    field.type = 'hidden';
    field.name = 'csrfmiddlewaretoken';
    field.value = token;
    form.appendChild(field);
    form.method = 'post';
  }
  document.querySelectorAll('[data-contest-entry-form]').forEach(function (form) {
    var asked = false;
    form.addEventListener('submit', function (event) {
      var token = csrfToken();
      if (token) return postWith(form, token); // this very submission posts
      if (asked || !window.fetch) return; // no token to be had: the plain GET to the entry page
      event.preventDefault();
      asked = true;
      ensureCsrfToken().then(function (fetched) {
        if (fetched) postWith(form, fetched);
        // After this submission's events are done (a submit asked for during them is ignored);
        // requestSubmit keeps the browser's own checks, submit() where it is missing.
        setTimeout(function () {
          if (form.requestSubmit) form.requestSubmit(); else form.submit();
        }, 0);
      });
    });
  });
})();
