// Progressive enhancement for the contest entry form (templates/contests/entry-form.njk).
// Without JavaScript it is a GET form to the private /contests/<name>/enter/ page, which sends
// the entry with its CSRF token. With it, the same form posts there at once: the csrftoken
// cookie's value goes in as the csrfmiddlewaretoken field, as the server's CSRF check expects.
(function () {
  'use strict';
  function csrfToken() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : '';
  }
  document.querySelectorAll('[data-contest-entry-form]').forEach(function (form) {
    form.addEventListener('submit', function () {
      var token = csrfToken();
      if (!token) return; // no cookie yet: the GET to the entry page gets one
      var field = form.querySelector('input[name="csrfmiddlewaretoken"]') || document.createElement('input');
      field.type = 'hidden';
      field.name = 'csrfmiddlewaretoken';
      field.value = token;
      form.appendChild(field);
      form.method = 'post';
    });
  });
})();
