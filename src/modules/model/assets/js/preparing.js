// A large model's page while its worker prepares the diagram and the source (model-page.jobs.ts):
// polls /model/<id>/prepared.json, waiting as its Retry-After says (202 while the job runs, 429
// while the visitor holds their share of heavy jobs), and loads the page once the data is ready.
// A failure is said, not guessed around; the poll goes on, since a crash is asked again.
(function () {
  'use strict';

  const box = document.getElementById('model-preparing');
  if (!box || !box.dataset.preparedUrl) return;
  const status = document.getElementById('model-preparing-status');
  const url = box.dataset.preparedUrl;
  let failures = 0;

  const waitSeconds = (response, fallback) => {
    const told = Number(response && response.headers.get('retry-after'));
    return Number.isFinite(told) && told > 0 ? Math.min(told, 30) : fallback;
  };

  async function poll() {
    let response;
    try {
      response = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' });
    } catch {
      failures++;
      setTimeout(poll, Math.min(30, 2 ** failures) * 1000);
      return;
    }
    if (response.ok) {
      const body = await response.json().catch(() => ({}));
      if (body.ready) {
        box.dataset.state = 'ready';
        window.location.reload();
        return;
      }
    }
    if (response.status === 429) {
      status.textContent = 'Waiting for your other requests on large models to finish before this one is prepared…';
    } else if (response.status >= 400) {
      failures++;
      const body = await response.json().catch(() => ({}));
      status.textContent = `The model could not be prepared${body.message ? `: ${body.message}` : ''}. Trying again…`;
      box.dataset.state = 'failed';
      setTimeout(poll, Math.min(30, 2 ** failures) * 1000);
      return;
    }
    setTimeout(poll, waitSeconds(response, 1) * 1000);
  }

  poll();
})();
