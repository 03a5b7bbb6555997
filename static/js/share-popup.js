// Share links (templates/partials/share-links.njk) open the network's share page in a pop-up
// window of the size the link names (data-share-window="670x340"), centred on this window.
// Without JavaScript, or when the browser blocks the pop-up, the link opens in a new tab.
(() => {
  if (window.__sharePopup) return; // the partial may print this script more than once
  window.__sharePopup = true;
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest('a[data-share-window]') : null;
    if (!link) return;
    const [width, height] = link.dataset.shareWindow.split('x').map(Number);
    if (!width || !height) return;
    const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2));
    const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2));
    const popup = window.open(link.href, 'share', `width=${width},height=${height},left=${left},top=${top},resizable=yes,scrollbars=yes`);
    if (!popup) return;
    // The share page must not reach back into this one.
    popup.opener = null;
    event.preventDefault();
  });
})();
