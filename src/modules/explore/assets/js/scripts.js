// The explore page (specification, explore): searches as the filters change, shows the
// results a page at a time with "load more", and aborts an in-flight search whenever a
// new one starts: an aborted request is superseded, not an error. Included on every
// page, it does nothing where there is no search form.
(function () {
  'use strict';
  const form = document.getElementById('explore-form');
  if (!form) return;

  const pageSize = Number(form.dataset.pageSize) || 20;
  const searchUrl = form.dataset.searchUrl || '/explore';
  const queryInput = form.querySelector('#query');
  const typeSelect = form.querySelector('#publication_type');
  const results = document.getElementById('results');
  const status = document.getElementById('results-status');
  const spinner = document.getElementById('results-spinner');
  const empty = document.getElementById('results-empty');
  const errorBox = document.getElementById('results-error');
  const loadMore = document.getElementById('load-more');
  // The model filter panel (present when the analysis module is enabled).
  const modelPanel = document.getElementById('model-filters');
  const modelInputs = modelPanel ? Array.from(modelPanel.querySelectorAll('input, select')) : [];
  const modelPages = form.dataset.modelPages === '1';

  let controller = null;
  let criteria = null;
  let shown = 0;
  let debounce = null;

  function sorting() {
    const checked = form.querySelector('input[name="sorting"]:checked');
    return checked ? checked.value : 'newest';
  }

  function modelValue(name) {
    const input = modelInputs.find((i) => i.name === name);
    return input ? input.value.trim() : '';
  }

  /** The `models` object of the search, or undefined when no filter is set. */
  function readModels() {
    const models = {};
    for (const field of ['features', 'constraints', 'depth']) {
      const range = {};
      // A number the browser cannot read is sent as text: the search answers with its message.
      for (const end of ['min', 'max']) {
        const raw = modelValue(`${field}_${end}`);
        if (raw !== '') range[end] = /^\d+$/.test(raw) ? Number(raw) : raw;
      }
      if (Object.keys(range).length > 0) models[field] = range;
    }
    const counts = {};
    if (modelValue('configurations_min')) counts.min = modelValue('configurations_min');
    if (modelValue('configurations_max')) counts.max = modelValue('configurations_max');
    if (Object.keys(counts).length > 0) models.configurations = counts;
    for (const flag of ['satisfiable', 'has_dead']) {
      if (modelValue(flag)) models[flag] = modelValue(flag) === 'true';
    }
    if (modelValue('language_level')) models.language_level = modelValue('language_level');
    if (modelValue('feature')) models.feature = modelValue('feature');
    return Object.keys(models).length > 0 ? models : undefined;
  }

  function readCriteria() {
    // The page never sends tags (explore rule 6).
    const criteria = { query: queryInput.value, publication_type: typeSelect.value, sorting: sorting() };
    const models = readModels();
    if (models) criteria.models = models;
    return criteria;
  }

  function modelLine(model) {
    const item = element('li', 'small');
    const name = modelPages ? element('a', 'text-decoration-none', model.name) : element('span', 'fw-semibold', model.name);
    if (modelPages) name.href = `/model/${model.file_id}/`;
    item.append(icon('diagram-3'), ' ', name);
    if (model.features === null) {
      item.append(element('span', 'text-muted', ' · analysis pending'));
      return item;
    }
    const count = model.configurations === null ? 'configurations unknown'
      : model.configurations.length > 12 ? `≈10^${model.configurations.length - 1} configurations` : `${model.configurations} configurations`;
    const facts = [`${model.features} features`, `${model.constraints} constraints`, count,
      model.satisfiable === false ? 'void' : model.satisfiable ? 'satisfiable' : null].filter(Boolean);
    item.append(element('span', 'text-muted', ` · ${facts.join(' · ')}`));
    return item;
  }

  function show(element, visible) {
    element.classList.toggle('d-none', !visible);
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function icon(name) {
    const i = element('i', `bi bi-${name}`);
    i.setAttribute('aria-hidden', 'true');
    return i;
  }

  function searchForTag(tag) {
    queryInput.value = tag;
    search();
  }

  function renderResult(dataset) {
    const card = element('article', 'card search-result');
    card.dataset.datasetId = dataset.id;
    const body = element('div', 'card-body');

    const title = element('h2', 'h5 card-title mb-1');
    const link = element('a', 'text-decoration-none', dataset.title);
    link.href = dataset.url;
    title.append(link);
    // Two versions of a dataset would otherwise look like two identical results.
    if (dataset.version_count > 1) title.append(' ', element('span', 'badge text-bg-light border dataset-version', `v${dataset.version} of ${dataset.version_count}`));

    const facts = [
      (dataset.created_at || '').slice(0, 10),
      // "None" is the API's label for no publication type; the card leaves it out.
      dataset.publication_type === 'None' ? '' : dataset.publication_type,
      `${dataset.files_count} file${dataset.files_count === 1 ? '' : 's'}`,
      dataset.total_size_in_human_format,
    ].filter(Boolean);
    const meta = element('p', 'small text-muted mb-1', facts.join(' · '));

    const authors = element('p', 'small mb-2 search-result-authors');
    authors.append(icon('people'), ' ');
    authors.append((dataset.authors || []).map((a) => (a.affiliation ? `${a.name} (${a.affiliation})` : a.name)).join('; ') || 'No authors listed');

    const description = dataset.description || '';
    const text = element('p', 'card-text mb-2', description.length > 300 ? `${description.slice(0, 297)}…` : description);

    const tags = element('div', 'd-flex flex-wrap gap-1 mb-2');
    for (const tag of dataset.tags || []) {
      const badge = element('button', 'badge rounded-pill text-bg-light border', tag);
      badge.type = 'button';
      badge.title = `Search for ${tag}`;
      badge.addEventListener('click', () => searchForTag(tag));
      tags.append(badge);
    }

    const actions = element('div', 'd-flex flex-wrap gap-2');
    const view = element('a', 'btn btn-sm btn-outline-primary');
    view.href = dataset.url;
    view.append(icon('eye'), ' View dataset');
    const download = element('a', 'btn btn-sm btn-outline-secondary');
    download.href = dataset.download;
    download.append(icon('download'), ` Download (${dataset.total_size_in_human_format})`);
    actions.append(view, download);
    if (dataset.dataset_doi) actions.append(element('span', 'small text-muted align-self-center text-break-all', `DOI ${dataset.dataset_doi}`));

    body.append(title, meta, authors, text, tags);
    if (Array.isArray(dataset.models) && dataset.models.length > 0) {
      const list = element('ul', 'list-unstyled mb-2 search-result-models');
      list.append(...dataset.models.map(modelLine));
      body.append(list);
    }
    body.append(actions);
    card.append(body);
    return card;
  }

  function setStatus(more) {
    if (shown === 0) status.textContent = 'No results';
    else if (more) status.textContent = `Showing the first ${shown} datasets`;
    else status.textContent = `${shown} dataset${shown === 1 ? '' : 's'} found`;
  }

  async function fetchPage(offset, signal) {
    // One extra result tells whether there is a next page, without counting.
    const response = await window.hub.fetch(searchUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ ...criteria, limit: pageSize + 1, offset }),
      signal,
    });
    if (response.status === 400) throw new Error(await refusal(response));
    if (!response.ok) throw new Error(`The search failed (HTTP ${response.status}). Please try again.`);
    return response.json();
  }

  // A refused search says in words what to change (issue 10), not only its HTTP status.
  async function refusal(response) {
    let message = '';
    try { message = String((await response.json()).message || ''); } catch { /* not JSON */ }
    const words = /"query" may hold at most (\d+)/.exec(message);
    if (words) return `Your search has too many different words: at most ${words[1]} are searched. Remove some words and search again.`;
    return message ? `This search cannot be run: ${message}` : 'This search cannot be run. Change it and try again.';
  }

  async function run(append) {
    if (controller) controller.abort();
    const mine = new AbortController();
    controller = mine;
    if (!append) {
      criteria = readCriteria();
      shown = 0;
      const url = new URL(window.location.href);
      if (criteria.query) url.searchParams.set('query', criteria.query);
      else url.searchParams.delete('query');
      // The address keeps the model filters, so that a filtered search can be shared.
      for (const input of modelInputs) {
        if (input.value.trim()) url.searchParams.set(input.name, input.value.trim());
        else url.searchParams.delete(input.name);
      }
      window.history.replaceState(null, '', url);
    }
    show(spinner, true);
    show(errorBox, false);
    loadMore.disabled = true;
    if (!append) status.textContent = 'Searching…';
    try {
      const items = await fetchPage(shown, mine.signal);
      if (controller !== mine) return;
      const page = items.slice(0, pageSize);
      if (!append) results.replaceChildren();
      results.append(...page.map(renderResult));
      shown += page.length;
      const more = items.length > pageSize;
      show(loadMore, more);
      show(empty, shown === 0);
      setStatus(more);
    } catch (error) {
      // A newer search aborted this one: it is superseded, not failed.
      if ((error && error.name === 'AbortError') || controller !== mine) return;
      errorBox.textContent = error.message || 'The search failed. Please try again.';
      show(errorBox, true);
      // The results of an earlier search would read as answers to this one.
      if (!append) {
        results.replaceChildren();
        shown = 0;
        show(loadMore, false);
        show(empty, false);
      }
      status.textContent = 'Search failed';
    } finally {
      if (controller === mine) {
        show(spinner, false);
        loadMore.disabled = false;
        controller = null;
      }
    }
  }

  function search() {
    clearTimeout(debounce);
    return run(false);
  }

  form.addEventListener('submit', (event) => {
    // "Save as a collection" posts the form to /explore/save as it is. Its button skips the form's
    // validation (formnovalidate, so that the filters never block it): its title is checked here,
    // the reason under the field, instead of the server's error page for a missing title.
    if (event.submitter && event.submitter.id === 'explore-save-button') {
      const title = document.getElementById('explore-save-title');
      const missing = title.value.trim() === '';
      title.classList.toggle('is-invalid', missing);
      if (missing) title.setAttribute('aria-invalid', 'true');
      else title.removeAttribute('aria-invalid');
      document.getElementById('explore-save-error').textContent = missing ? 'Give the collection a title.' : '';
      if (missing) {
        event.preventDefault();
        title.focus();
      }
      return;
    }
    event.preventDefault();
    search();
  });
  queryInput.addEventListener('input', () => {
    clearTimeout(debounce);
    debounce = setTimeout(search, 300);
  });
  typeSelect.addEventListener('change', search);
  for (const input of modelInputs) {
    if (input.tagName === 'SELECT') input.addEventListener('change', search);
    else {
      input.addEventListener('input', () => {
        clearTimeout(debounce);
        debounce = setTimeout(search, 400);
      });
    }
  }
  for (const radio of form.querySelectorAll('input[name="sorting"]')) radio.addEventListener('change', search);
  document.getElementById('clear-filters').addEventListener('click', () => {
    queryInput.value = '';
    typeSelect.value = 'any';
    form.querySelector('#sorting-newest').checked = true;
    for (const input of modelInputs) input.value = '';
    search();
  });
  loadMore.addEventListener('click', () => run(true));

  // The page is prefilled from ?query= and searches at once (specification, explore).
  search();
})();
