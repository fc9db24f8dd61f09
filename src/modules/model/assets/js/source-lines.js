// The model page's source beyond its first lines: each placeholder chunk is fetched from
// /model/<id>/lines when it scrolls near view, and at once when the address names one of its
// lines (#L12000, also from an explanation's link), which is then shown and marked as the
// target (the line did not exist when the browser looked for it).
(function () {
  'use strict';

  const code = document.getElementById('uvl-code');
  if (!code || !code.dataset.linesUrl) return;
  const url = code.dataset.linesUrl;
  // A chunk's placeholder is as tall as its lines will be, so the scroll bar and positions hold.
  const lineHeight = () => {
    const line = code.querySelector('.uvl-line');
    return line ? line.getBoundingClientRect().height || 18 : 18;
  };
  const loading = new Map();

  function lineElement(n, html) {
    const row = document.createElement('div');
    row.className = 'uvl-line';
    row.id = 'L' + n;
    const link = document.createElement('a');
    link.className = 'uvl-ln';
    link.href = '#L' + n;
    link.setAttribute('aria-label', 'Line ' + n);
    link.textContent = String(n);
    const text = document.createElement('code');
    // Highlighted and escaped by the server (highlight.ts), as the page's own lines are.
    text.innerHTML = html;
    row.append(link, text);
    return row;
  }

  function load(chunk) {
    if (loading.has(chunk)) return loading.get(chunk);
    const from = Number(chunk.dataset.from);
    const to = Number(chunk.dataset.to);
    // The lines are highlighted in a worker of the scheduler: 429 (the visitor's other heavy
    // requests hold their share) is waited out as its Retry-After says, then asked again.
    const ask = () => fetch(url + '?from=' + from + '&to=' + to, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then((response) => {
        if (response.ok) return response.json();
        if (response.status === 429) {
          const wait = Math.min(30, Number(response.headers.get('retry-after')) || 2);
          chunk.textContent = 'Lines ' + from + '–' + to + ' wait for your other requests on large models…';
          return new Promise((resolve) => setTimeout(resolve, wait * 1000)).then(ask);
        }
        return Promise.reject(new Error(String(response.status)));
      });
    const done = ask()
      .then((body) => {
        const rows = document.createDocumentFragment();
        body.lines.forEach((html, i) => rows.append(lineElement(from + i, html)));
        observer?.unobserve(chunk);
        chunk.replaceWith(rows);
      })
      .catch(() => {
        loading.delete(chunk);
        chunk.textContent = 'Lines ' + from + '–' + to + ' could not be loaded; scroll again to retry.';
      });
    loading.set(chunk, done);
    return done;
  }

  const chunks = Array.from(code.querySelectorAll('.uvl-chunk'));
  const height = lineHeight();
  for (const chunk of chunks) chunk.style.height = (Number(chunk.dataset.to) - Number(chunk.dataset.from) + 1) * height + 'px';

  const observer = 'IntersectionObserver' in window
    ? new IntersectionObserver((entries) => {
      for (const entry of entries) if (entry.isIntersecting) load(entry.target);
    }, { root: code, rootMargin: '600px 0px' })
    : null;
  for (const chunk of chunks) observer?.observe(chunk);

  async function showTarget() {
    const match = /^#L(\d+)$/.exec(window.location.hash);
    if (!match) return;
    const n = Number(match[1]);
    let line = document.getElementById('L' + n);
    if (!line) {
      const chunk = Array.from(code.querySelectorAll('.uvl-chunk')).find((c) => Number(c.dataset.from) <= n && n <= Number(c.dataset.to));
      if (!chunk) return;
      await load(chunk);
      line = document.getElementById('L' + n);
      if (!line) return;
    }
    for (const old of code.querySelectorAll('.uvl-line.is-target')) old.classList.remove('is-target');
    line.classList.add('is-target');
    line.scrollIntoView({ block: 'center' });
  }

  window.addEventListener('hashchange', showTarget);
  showTarget();
})();
