// Included on every page; acts only on a model page whose analysis is pending. It polls the
// page's analysis.json; each time more results are known (what is still running changed) it
// fetches the page again and swaps in the fact label, and once the analysis has finished (or
// failed) tells the diagram to draw itself again in colour, so the visitor sees each result in
// place without losing their scroll position or their view of the diagram. No inline script: the CSP allows only scripts served by the hub.
(function () {
  'use strict';

  const page = document.getElementById('model-page');
  // Below the two-column width the facts come first: their long lists (data-fold: more than a few
  // entries; thousands of pixels on a large model) fold to their counts, so the diagram and the configurator are a short scroll away (issue 37).
  const stacked = window.matchMedia('(max-width: 991.98px)');
  const fold = () => { if (stacked.matches) for (const d of document.querySelectorAll('#fact-label details.fact-list[data-fold][open]')) d.open = false; };
  fold();
  if (!page || page.dataset.analysisState !== 'pending') return;
  const url = page.dataset.analysisUrl;
  const started = Date.now();
  // Back off from 1 s to 10 s; stop after an hour (a reload starts again).
  let delay = 1000;

  let knownRunning = null;

  async function swapIn(ids) {
    const response = await fetch(window.location.pathname + window.location.search, { credentials: 'same-origin', headers: { Accept: 'text/html' } });
    if (!response.ok) return false;
    const fresh = new DOMParser().parseFromString(await response.text(), 'text/html');
    for (const id of ids) {
      const next = fresh.getElementById(id);
      const current = document.getElementById(id);
      if (next && current) current.replaceWith(document.importNode(next, true));
    }
    fold();
    const state = fresh.getElementById('model-page');
    if (state) page.dataset.analysisState = state.dataset.analysisState;
    return page.dataset.analysisState !== 'pending';
  }

  /** The diagram (diagram.js) draws its current view again, now coloured. */
  function finished() {
    document.dispatchEvent(new CustomEvent('hub:analysis-finished'));
  }

  async function poll() {
    try {
      const response = await fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' }, cache: 'no-store' });
      const body = response.ok ? await response.json() : null;
      if (body && body.status && body.status !== 'pending' && await swapIn(['fact-label'])) return finished();
      const running = body && Array.isArray(body.running) ? body.running.join(',') : null;
      if (running !== null && running !== knownRunning) {
        knownRunning = running;
        // The page fetched for what is still running may hold the finished label already.
        if (await swapIn(['fact-label'])) return finished();
        delay = 1000;
      }
    } catch (e) {
      // The network or the server is down for a moment: try again later.
    }
    delay = Math.min(delay * 1.5, 10000);
    if (Date.now() - started < 3600000) window.setTimeout(poll, delay);
  }

  window.setTimeout(poll, delay);
})();
