// The owner's "Publish again" buttons (dataset page and list): the route answers the upload's
// JSON (ok with the DOI, or partial with the reason); the page follows it.
(function () {
  'use strict';

  function csrfToken() {
    const meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute('content') : '';
  }

  function doiPath(doi) {
    return doi.split('/').map(encodeURIComponent).join('/');
  }

  function say(form, kind, message) {
    const box = form.closest('.owner-actions').querySelector('.publish-result');
    if (!box) return;
    box.replaceChildren(window.hub.alertBox(kind, message, [], 'status'));
  }

  document.addEventListener('submit', async function (event) {
    const form = event.target.closest('.js-publish-form');
    if (!form) return;
    event.preventDefault();
    const button = form.querySelector('button');
    button.disabled = true;
    say(form, 'secondary', 'Publishing…');
    try {
      const response = await fetch(form.action, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { Accept: 'application/json', 'X-CSRFToken': csrfToken() },
      });
      const body = await response.json().catch(function () { return null; });
      if (response.ok && body && body.status === 'ok') {
        window.location.assign('/doi/' + doiPath(body.doi) + '/');
        return;
      }
      if (response.ok && body && body.status === 'partial') {
        // The message is kept for the page (flash); reloading shows it where messages appear.
        window.location.reload();
        return;
      }
      say(form, 'danger', (body && (body.message || body.error)) || 'Publishing failed (' + response.status + ').');
    } catch (e) {
      say(form, 'danger', 'Publishing failed: the network is unavailable.');
    }
    button.disabled = false;
  });
})();
