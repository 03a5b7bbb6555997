// A picture that fails to load (a media file gone, an outside host down) becomes the designed
// placeholder its <img data-fallback> names, never a broken-image icon. Error events do not
// bubble, hence the capturing listener; it runs for images added later by islands too.
document.addEventListener(
  'error',
  function (event) {
    var img = event.target;
    if (!(img instanceof HTMLImageElement)) return;
    var fallback = img.getAttribute('data-fallback');
    if (!fallback || img.getAttribute('src') === fallback) return;
    img.removeAttribute('srcset');
    img.src = fallback;
  },
  true,
);
