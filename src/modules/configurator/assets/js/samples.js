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

  // The server cites it (the dataset's authors, year and DOI; the file, kind, parameters, seed and engine version).
  async function showCitation(params) {
    const res = await fetch(`/api/v1/files/${fileId}/samples/citation?${params}`, { headers: { accept: 'application/json' } });
    const json = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(json.message || `The server answered ${res.status}.`);
    document.getElementById('sample-cite').value = json.text;
    document.getElementById('sample-bibtex').value = json.bibtex;
    document.getElementById('sample-csl').value = JSON.stringify([json.csl], null, 2);
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
          await showCitation(params);
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
