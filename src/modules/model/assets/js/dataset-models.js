// Included on every page; acts only on a dataset's page (#dataset with its file rows). It shows
// each model's facts beside its file (features, constraints, configurations, anomalies), read
// from /model/dataset/<id>/models.json, and asks again while some analysis is still pending.
// Not in the page's HTML: the DOI page is kept for anonymous visitors while analyses finish.
(function () {
  'use strict';

  const article = document.getElementById('dataset');
  const rows = document.querySelectorAll('#feature-models .file-row[data-file-id]');
  if (!article || !article.dataset.datasetId || rows.length === 0) return;
  const url = '/model/dataset/' + article.dataset.datasetId + '/models.json';
  const plural = (n, word) => n + ' ' + word + (n === 1 ? '' : 's');
  const grouped = (digits) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
  const count = (digits) => (digits.length <= 12 ? grouped(digits) : digits[0] + '.' + digits.slice(1, 3) + ' × 10^' + (digits.length - 1));

  function text(m) {
    if (m.status === 'pending') return 'Analysis pending';
    if (m.status === 'failed') return 'Analysis failed (see the model page)';
    const parts = [plural(m.features, 'feature'), plural(m.constraints, 'constraint')];
    if (m.satisfiable === false) parts.push('void: no configuration');
    else {
      if (m.configurations !== null) parts.push(count(m.configurations) + ' configuration' + (m.configurations === '1' ? '' : 's'));
      const anomalies = [];
      if (m.dead) anomalies.push(m.dead + ' dead');
      if (m.false_optional) anomalies.push(m.false_optional + ' false-optional');
      parts.push(anomalies.length > 0 ? anomalies.join(', ') : m.dead === null ? 'anomalies not computed' : 'no anomalies');
    }
    if (m.status === 'partial') parts.push('partial (out of time)');
    return parts.join(' · ');
  }

  let delay = 2000;
  async function show() {
    let pending = false;
    try {
      const response = await fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' }, cache: 'no-store' });
      if (!response.ok) return;
      const body = await response.json();
      if (!body.analysed) return;
      const byFile = new Map(body.models.map((m) => [String(m.file_id), m]));
      for (const row of rows) {
        const m = byFile.get(row.dataset.fileId);
        if (!m) continue;
        pending = pending || m.status === 'pending';
        let facts = row.querySelector('.model-facts');
        if (!facts) {
          facts = document.createElement('div');
          facts.className = 'model-facts w-100 small text-muted';
          row.querySelector('.check-result')?.before(facts);
        }
        facts.textContent = text(m);
        if (m.status === 'done' || m.status === 'partial') facts.classList.remove('text-muted');
        if (m.dead || m.false_optional || m.satisfiable === false) facts.classList.add('text-danger-emphasis');
      }
    } catch (e) {
      pending = true;
    }
    if (pending && delay < 60000) {
      window.setTimeout(show, delay);
      delay *= 2;
    }
  }
  show();
})();
