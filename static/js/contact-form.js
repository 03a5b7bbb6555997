// Progressive enhancement for the contact form (templates/contact/index.njk). The form works
// the same without it (the server checks everything again and shows its errors beside the
// fields). With it:
// - every field is pristine, then dirty once changed, then clean or invalid when left (spec 2
//   §4): required, lengths, email format and the confirmation match, in the server's words
//   (the form's data-rules), shown beside the field before anything is sent. A field found
//   invalid is checked again as it is typed in, so its error goes as soon as it is fixed;
//   sending checks them all, pristine ones too, and a mismatch or any error blocks it;
// - the live remaining-character counter, and the business fields only for advertising;
// - the form is sent in place ('Sending...' meanwhile): the server's field errors come back
//   beside the fields (a new question after a captcha error); after success every field but
//   the subject is empty and pristine again, and the thank-you replaces the button.
(function () {
  'use strict';
  var form = document.querySelector('form[data-contact-form]');
  if (!form) return;
  var rules = JSON.parse(form.getAttribute('data-rules') || '{}');
  var messages = rules.messages || {};
  var emailPattern = new RegExp(rules.emailPattern || '^\\S+@\\S+\\.\\S+$');
  var phonePattern = new RegExp(rules.phonePattern || '^[0-9+()\\-.\\s]{7,30}$');
  var NAMES = ['question_category', 'name', 'email', 'confirm_email', 'business_name', 'phone_number', 'comment', 'captcha'];

  var comment = form.elements.comment;
  var counter = form.querySelector('[data-char-counter]');
  var max = Number(comment.getAttribute('maxlength'));
  function updateCounter() {
    var left = max - comment.value.length;
    counter.textContent = left + (left === 1 ? ' character remaining' : ' characters remaining');
    counter.classList.toggle('char-counter--low', left < 50);
  }
  comment.addEventListener('input', updateCounter);
  updateCounter();

  var category = form.elements.question_category;
  var business = form.querySelector('[data-advertise-only]');
  function updateBusiness() { business.hidden = category.value !== 'advertise'; }
  category.addEventListener('change', updateBusiness);
  updateBusiness();

  // ## Field states

  function control(name) { return form.elements[name]; }
  function errorLine(name) { return document.getElementById(name + '-error'); }
  /** Business fields count only while they are shown. */
  function inPlay(name) { return !business.hidden || (name !== 'business_name' && name !== 'phone_number'); }

  /** The field's error in the server's words, or '' when it is fine. */
  function check(name) {
    var el = control(name);
    var value = el.value.trim();
    if (el.required && !value) return messages.required;
    var limit = Number(el.getAttribute('maxlength'));
    if (limit && value.length > limit) return messages.tooLong.replace('{max}', String(limit));
    if (name === 'email' && !emailPattern.test(value)) return messages.emailInvalid;
    if (name === 'phone_number' && value && !phonePattern.test(value)) return messages.phoneInvalid;
    if (name === 'confirm_email' && value.toLowerCase() !== control('email').value.trim().toLowerCase()) return messages.emailMismatch;
    return '';
  }

  function describedBy(el, id, on) {
    var ids = (el.getAttribute('aria-describedby') || '').split(/\s+/).filter(function (x) { return x && x !== id; });
    if (on) ids.unshift(id);
    if (ids.length) el.setAttribute('aria-describedby', ids.join(' '));
    else el.removeAttribute('aria-describedby');
  }

  /** pristine | dirty | clean | invalid, with the message beside the field when invalid. */
  function setState(name, state, message) {
    var el = control(name);
    var line = errorLine(name);
    el.setAttribute('data-state', state);
    var invalid = state === 'invalid';
    if (invalid) el.setAttribute('aria-invalid', 'true');
    else el.removeAttribute('aria-invalid');
    if (line) {
      line.textContent = invalid ? message : '';
      line.hidden = !invalid;
      describedBy(el, line.id, invalid);
    }
  }
  function stateOf(name) { return control(name).getAttribute('data-state'); }

  function validate(name) {
    var message = check(name);
    setState(name, message ? 'invalid' : 'clean', message);
    return !message;
  }

  NAMES.forEach(function (name) {
    var el = control(name);
    // A field the server refused starts invalid (its message is already beside it).
    if (el.getAttribute('aria-invalid') === 'true') el.setAttribute('data-state', 'invalid');
    else setState(name, 'pristine');
    var changed = function () {
      if (stateOf(name) === 'invalid') validate(name);
      else setState(name, 'dirty');
      if (name === 'email' && stateOf('confirm_email') === 'invalid') validate('confirm_email');
    };
    el.addEventListener('input', changed);
    if (el.tagName === 'SELECT') el.addEventListener('change', function () { validate(name); });
    el.addEventListener('blur', function () {
      if (stateOf(name) === 'dirty') validate(name);
      // A changed email is checked against a confirmation already typed.
      if (name === 'email' && stateOf('confirm_email') !== 'pristine') validate('confirm_email');
    });
  });

  // ## Sending

  var actions = form.querySelector('[data-form-actions]');
  var button = form.querySelector('button[type="submit"]');
  var idleText = button.textContent;
  var failure = document.createElement('p');
  failure.className = 'field-error';
  failure.setAttribute('role', 'alert');
  failure.hidden = true;
  actions.appendChild(failure);

  function sending(on) {
    button.disabled = on;
    button.textContent = on ? button.getAttribute('data-sending-text') : idleText;
  }

  function newQuestion() {
    return fetch('/contact/captcha/', { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then(function (res) { return res.ok ? res.json() : null; })
      .then(function (captcha) {
        if (!captcha) return;
        var image = form.querySelector('.captcha__image');
        image.src = captcha.image;
        image.alt = captcha.alt;
        form.elements.captcha_key.value = captcha.key;
        control('captcha').value = '';
      })
      .catch(function () {});
  }

  function succeeded(detail) {
    // Emptied rather than reset: after a refused plain post, the fields' defaults are its values.
    NAMES.forEach(function (name) {
      if (control(name).tagName !== 'SELECT') control(name).value = '';
      setState(name, 'pristine');
    });
    updateCounter();
    var summary = document.querySelector('.notice--error');
    if (summary) summary.remove();
    var thanks = document.createElement('p');
    thanks.className = 'notice notice--success';
    thanks.setAttribute('role', 'status');
    thanks.textContent = detail;
    actions.replaceChildren(thanks);
  }

  function refused(fields) {
    var first = null;
    Object.keys(fields).forEach(function (key) {
      var name = key === 'captcha_key' ? 'captcha' : key;
      if (NAMES.indexOf(name) < 0) return;
      setState(name, 'invalid', [].concat(fields[key])[0]);
      if (!first) first = name;
    });
    if (fields.captcha || fields.captcha_key) newQuestion();
    if (first) control(first).focus();
  }

  form.addEventListener('submit', function (event) {
    var firstBad = null;
    NAMES.forEach(function (name) {
      if (!inPlay(name)) { setState(name, 'pristine'); return; }
      if (!validate(name) && !firstBad) firstBad = name;
    });
    if (firstBad) {
      event.preventDefault();
      control(firstBad).focus();
      return;
    }
    if (!window.fetch || !window.URLSearchParams) { sending(true); return; } // the plain post
    event.preventDefault();
    if (button.disabled) return;
    failure.hidden = true;
    sending(true);
    fetch(form.action, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(new FormData(form)).toString(),
    })
      .then(function (res) {
        return res.json().catch(function () { return {}; }).then(function (body) {
          sending(false);
          if (res.status === 201) succeeded(body.detail);
          else if (res.status === 400) refused(body);
          else throw new Error(String(res.status));
        });
      })
      .catch(function () {
        sending(false);
        failure.textContent = 'Sorry, your message could not be sent. Please try again.';
        failure.hidden = false;
      });
  });
})();
