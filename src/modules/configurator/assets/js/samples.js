// Samples on the model page (issue 24): kind and parameters, progress while a worker computes
// (the API answers 202 until the sample is stored), downloads, and the text to cite it.
(() => {
  const form = document.getElementById('sample-form');
  const section = document.getElementById('configurator');
  if (!form || !section) return;
  const fileId = section.dataset.fileId;
  const status = document.getElementById('sample-status');
  const result = document.getElementById('sample-result');
  const kind = document.getElementById('sample-kind');

  const showFields = () => {
    document.getElementById('sample-n-field').hidden = kind.value !== 'uniform';
    document.getElementById('sample-t-field').hidden = kind.value !== 'twise';
  };
  kind.addEventListener('change', showFields);
  showFields();

  function citation(sample, params) {
    const doi = section.dataset.doi ? `https://doi.org/${section.dataset.doi}` : '(dataset not yet published: no DOI)';
    const what = sample.kind === 'uniform'
      ? `uniform sample of ${sample.n} configurations${sample.selected?.length || sample.deselected?.length ? ` (selected: ${(sample.selected || []).join(', ') || 'none'}; deselected: ${(sample.deselected || []).join(', ') || 'none'})` : ''}`
      : `${sample.t}-wise sample (${sample.size} configurations, ${sample.covered} of ${sample.interactions} interactions covered)`;
    return `${section.dataset.datasetTitle}. ${doi}. File ${section.dataset.fileName}, ${what}, seed ${sample.seed}, UVL Hub engine version ${sample.engine_version}. `
      + `Retrieved from ${location.origin}/api/v1/files/${fileId}/samples?${params}`;
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const params = new URLSearchParams({ kind: kind.value, seed: document.getElementById('sample-seed').value });
    if (kind.value === 'uniform') params.set('n', document.getElementById('sample-n').value);
    else params.set('t', document.getElementById('sample-t').value);
    result.hidden = true;
    status.textContent = 'Asking for the sample…';
    const started = Date.now();
    try {
      for (;;) {
        const res = await fetch(`/api/v1/files/${fileId}/samples?${params}`, { headers: { accept: 'application/json' } });
        const json = await res.json().catch(() => ({}));
        if (res.status === 200) {
          status.textContent = `Ready: ${json.configurations.length} configuration${json.configurations.length === 1 ? '' : 's'}.`;
          document.getElementById('sample-json').href = `/api/v1/files/${fileId}/samples?${params}&format=json`;
          document.getElementById('sample-csv').href = `/api/v1/files/${fileId}/samples?${params}&format=csv`;
          document.getElementById('sample-cite').value = citation(json, params);
          result.hidden = false;
          return;
        }
        if (res.status !== 202) throw new Error(json.message || `The server answered ${res.status}.`);
        status.textContent = `A worker is computing the sample… ${Math.round((Date.now() - started) / 1000)} s`;
        await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') || 2)));
      }
    } catch (error) {
      status.textContent = error.message;
    }
  });
})();
