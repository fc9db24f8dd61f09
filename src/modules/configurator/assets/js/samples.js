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

  const cancel = document.getElementById('sample-cancel');
  /** The sample being waited for (its query), and whether its Cancel was pressed. */
  let waiting = null;

  // "12,345 of 67,890 interactions covered (18%), 12 s, about 40 s left" from the 202's progress.
  function progressText(progress, seconds) {
    if (!progress) return `A worker is computing the sample… ${seconds} s`;
    const share = progress.total > 0 ? Math.floor((100 * progress.covered) / progress.total) : 0;
    const left = progress.estimate_s === null ? '' : `, about ${progress.estimate_s} s left`;
    return `A worker is computing the sample: ${progress.covered.toLocaleString('en')} of ${progress.total.toLocaleString('en')} interactions covered (${share}%), ${progress.elapsed_s} s${left}.`;
  }

  cancel.addEventListener('click', async () => {
    if (!waiting) return;
    const current = waiting;
    current.cancelled = true;
    cancel.hidden = true;
    try {
      const res = await window.hub.fetch(`/configurator/${fileId}/samples/cancel?${current.params}`, {
        method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: '{}',
      });
      const json = await res.json().catch(() => ({}));
      if (!res.ok) throw new Error(json.message || `The server answered ${res.status}.`);
      status.textContent = json.cancelled || !json.running
        ? 'Cancelled.'
        : `Stopped waiting: ${json.waiting} other${json.waiting === 1 ? '' : 's'} still wait${json.waiting === 1 ? 's' : ''} for this sample, so it goes on for them.`;
    } catch (error) {
      status.textContent = error.message;
    }
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const params = new URLSearchParams({ kind: kind.value, seed: document.getElementById('sample-seed').value });
    if (kind.value === 'uniform') params.set('n', document.getElementById('sample-n').value);
    else params.set('t', document.getElementById('sample-t').value);
    result.hidden = true;
    status.textContent = 'Asking for the sample…';
    const started = Date.now();
    const current = { params: params.toString(), cancelled: false };
    waiting = current;
    try {
      for (;;) {
        if (current.cancelled || waiting !== current) return;
        const res = await fetch(`/api/v1/files/${fileId}/samples?${params}`, { headers: { accept: 'application/json' } });
        const json = await res.json().catch(() => ({}));
        if (current.cancelled || waiting !== current) return;
        if (res.status === 200) {
          cancel.hidden = true;
          status.textContent = `Ready: ${json.configurations.length} configuration${json.configurations.length === 1 ? '' : 's'}.`;
          document.getElementById('sample-json').href = `/api/v1/files/${fileId}/samples?${params}&format=json`;
          document.getElementById('sample-csv').href = `/api/v1/files/${fileId}/samples?${params}&format=csv`;
          await showCitation(params);
          result.hidden = false;
          return;
        }
        // 429: the page's own requests hold this requester's share of heavy jobs for now; ask again after Retry-After.
        if (res.status !== 202 && res.status !== 429) throw new Error(json.message || `The server answered ${res.status}.`);
        status.textContent = res.status === 429 ? `Waiting for a free worker… ${Math.round((Date.now() - started) / 1000)} s` : progressText(json.progress, Math.round((Date.now() - started) / 1000));
        cancel.hidden = false;
        await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') || 2)));
      }
    } catch (error) {
      cancel.hidden = true;
      status.textContent = error.message;
    }
  });
})();
