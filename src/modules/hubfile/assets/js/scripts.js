// Included on every page. A file download link leaves the browser on a bare JSON error when
// the file is gone; this asks first with a HEAD request (which counts no download) and only
// then lets the browser download the file itself, with its own progress and save dialog.
(function () {
  'use strict';

  document.addEventListener('click', async function (event) {
    const link = event.target.closest('a[href^="/file/download/"]');
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    try {
      const response = await fetch(link.href, { method: 'HEAD', credentials: 'same-origin' });
      if (response.ok) {
        window.location.assign(link.href);
        return;
      }
      window.alert(response.status === 404
        ? 'This file is not available any more.'
        : 'The file cannot be downloaded right now (status ' + response.status + ').');
    } catch (e) {
      window.alert('The file cannot be downloaded: the network is unavailable.');
    }
  });
})();
