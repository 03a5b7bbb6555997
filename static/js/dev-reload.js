// Development only (npm run dev): reload the page when the server says so or comes back.
(function () {
  var wasDown = false;
  var source = new EventSource('/__dev/reload');
  source.onmessage = function (e) { if (e.data === 'reload') location.reload(); };
  source.onerror = function () { wasDown = true; };
  source.onopen = function () { if (wasDown) location.reload(); };
})();
