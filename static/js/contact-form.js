// Progressive enhancement for the contact form (templates/contact/index.njk): the live
// remaining-character counter, business fields only for advertising, the email confirmation
// checked on blur and on submit, and 'Sending...' while the form is sent. The form works
// the same without it; the server checks everything again.
(function () {
  'use strict';
  var form = document.querySelector('form[data-contact-form]');
  if (!form) return;
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

  var email = form.elements.email;
  var confirm = form.elements.confirm_email;
  var mismatch = form.querySelector('[data-email-mismatch]');
  function emailsMatch() {
    var bad = confirm.value.trim() !== '' && email.value.trim().toLowerCase() !== confirm.value.trim().toLowerCase();
    mismatch.hidden = !bad;
    if (bad) confirm.setAttribute('aria-invalid', 'true'); else confirm.removeAttribute('aria-invalid');
    return !bad;
  }
  confirm.addEventListener('blur', emailsMatch);
  email.addEventListener('blur', function () { if (confirm.value) emailsMatch(); });

  form.addEventListener('submit', function (event) {
    if (!emailsMatch()) { event.preventDefault(); confirm.focus(); return; }
    var button = form.querySelector('button[type="submit"]');
    button.textContent = button.getAttribute('data-sending-text');
    button.disabled = true;
  });
})();
