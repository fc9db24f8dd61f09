// The dataset upload page: authors, staging of .uvl files (drag and drop or picker) with
// progress and immediate validity, per-model details, submission with field errors.
(function () {
  'use strict';
  const form = document.getElementById('upload-form');
  if (!form) return;

  const maxBytes = Number(form.dataset.maxBytes);
  const maxFiles = Number(form.dataset.maxFiles);
  const modelsBox = document.getElementById('models');
  const dropZone = document.getElementById('drop-zone');
  const fileInput = document.getElementById('file-input');
  const formErrors = document.getElementById('form-errors');
  const submitButton = document.getElementById('upload-button');
  const draftButton = document.getElementById('draft-button');
  const progress = document.getElementById('upload-progress');
  const progressBar = document.getElementById('upload-progress-bar');
  const authorTemplate = document.getElementById('author-template');
  const modelTemplate = document.getElementById('model-template');
  const uploadStatus = document.getElementById('upload-status');
  const turns = window.hubStagingTurns;
  // The field errors of a refused submission, and their marks taken off as fields are corrected (upload-errors.js).
  const fieldErrors = window.hubUploadErrors(form, formErrors, dropZone);

  function csrfToken() {
    const meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute('content') : '';
  }

  function setBar(bar, fraction) {
    const percent = Math.max(0, Math.min(100, Math.round(fraction * 100)));
    bar.style.width = percent + '%';
    if (bar.parentElement) bar.parentElement.setAttribute('aria-valuenow', String(percent));
  }

  // The staging answer lists at most 20 errors or warnings and counts the rest (`more`).
  function fillList(box, messages, more) {
    const list = box.querySelector('ul');
    list.replaceChildren();
    for (const message of messages) {
      const item = document.createElement('li');
      item.textContent = message;
      list.appendChild(item);
    }
    if (more > 0) {
      const item = document.createElement('li');
      item.className = 'list-more';
      item.textContent = 'and ' + more + ' more';
      list.appendChild(item);
    }
    box.classList.toggle('d-none', messages.length === 0);
  }

  function parseJson(xhr) {
    try { return JSON.parse(xhr.responseText); } catch (e) { return null; }
  }

  // ---- authors -------------------------------------------------------------------------------

  function addAuthor(container, values) {
    const row = authorTemplate.content.firstElementChild.cloneNode(true);
    if (values) {
      for (const key of ['name', 'affiliation', 'orcid']) {
        row.querySelector('[data-field="' + key + '"]').value = values[key] || '';
      }
    }
    container.appendChild(row);
    return row;
  }

  form.addEventListener('click', function (event) {
    const add = event.target.closest('.js-add-author');
    if (add) {
      const container = add.dataset.target ? document.getElementById(add.dataset.target) : add.closest('.model-entry').querySelector('.authors');
      const row = addAuthor(container);
      row.querySelector('input').focus();
      return;
    }
    const remove = event.target.closest('.js-remove-author');
    if (remove) {
      remove.closest('.author-row').remove();
      return;
    }
    const removeModel = event.target.closest('.js-remove-model');
    if (removeModel) removeEntry(removeModel.closest('.model-entry'));
  });

  // A new version starts with the current version's authors; otherwise the uploader is the first
  // author unless changed, and an emptied row falls back to the profile too.
  const versionAuthors = form.dataset.authors ? JSON.parse(form.dataset.authors) : [];
  if (versionAuthors.length > 0) {
    versionAuthors.forEach(function (a) {
      addAuthor(document.getElementById('authors'), { name: a.name, affiliation: a.affiliation || '', orcid: a.orcid || '' });
    });
  } else if (form.dataset.profileName) {
    addAuthor(document.getElementById('authors'), {
      name: form.dataset.profileName, affiliation: form.dataset.profileAffiliation, orcid: form.dataset.profileOrcid,
    });
  } else {
    addAuthor(document.getElementById('authors'));
  }

  // ---- staged models -------------------------------------------------------------------------

  function entryCount() {
    return modelsBox.querySelectorAll('.model-entry').length;
  }

  function newEntry(displayName) {
    const entry = modelTemplate.content.firstElementChild.cloneNode(true);
    entry.querySelector('.model-name').textContent = displayName;
    entry.querySelector('[data-field="title"]').value = displayName.replace(/\.(uvl|xml|sxfm|json)$/i, '');
    modelsBox.appendChild(entry);
    return entry;
  }

  function setStatus(entry, text, kind) {
    const badge = entry.querySelector('.model-status');
    badge.textContent = text;
    badge.className = 'badge model-status text-bg-' + kind;
  }

  function showStaged(entry, staged) {
    document.getElementById('feature_models-errors').replaceChildren();
    entry.dataset.staged = staged.filename;
    entry.querySelector('[data-field="uvl_filename"]').value = staged.filename;
    entry.querySelector('.model-name').textContent = staged.filename;
    entry.querySelector('.model-progress').classList.add('d-none');
    entry.classList.toggle('border-danger', !staged.valid);
    entry.dataset.valid = staged.valid ? 'true' : 'false';
    const warned = staged.valid && (staged.warnings || []).length > 0;
    setStatus(entry, !staged.valid ? 'Syntax errors' : warned ? 'Valid, with warnings' : 'Valid', !staged.valid ? 'danger' : warned ? 'warning' : 'success');
    fillList(entry.querySelector('.model-errors'), staged.errors || [], staged.errors_more || 0);
    fillList(entry.querySelector('.model-warnings'), staged.warnings || [], staged.warnings_more || 0);
    showConversion(entry, staged);
  }

  const FORMAT_TITLES = { featureide: 'FeatureIDE', sxfm: 'SPLOT SXFM', glencoe: 'Glencoe' };

  /** A model converted from another format (issue 27): its original and the loss report. */
  function showConversion(entry, staged) {
    const box = entry.querySelector('.model-conversion');
    if (!box) return;
    const losses = staged.losses || [];
    fillList(box, losses);
    box.classList.toggle('d-none', !staged.original);
    if (!staged.original) return;
    box.querySelector('.model-conversion-summary').textContent = 'Converted from ' + (FORMAT_TITLES[staged.format] || staged.format)
      + ' (' + staged.original + ', kept beside the model): '
      + (losses.length === 0 ? 'nothing was lost.' : losses.length + (losses.length === 1 ? ' thing' : ' things') + ' could not be carried over:');
  }

  function showFailure(entry, message, details) {
    entry.querySelector('.model-progress').classList.add('d-none');
    entry.classList.add('border-danger');
    entry.dataset.failed = 'true';
    setStatus(entry, 'Not staged', 'danger');
    // A file of another format that does not convert: its reader's errors after the first (issue 27).
    fillList(entry.querySelector('.model-errors'), [message].concat(Array.isArray(details) ? details.slice(1) : []));
  }

  function stage(file) {
    const entry = newEntry(file.name);
    if (!/\.(uvl|xml|sxfm|json)$/i.test(file.name)) return showFailure(entry, 'Only .uvl, FeatureIDE or SPLOT .xml, SPLOT .sxfm and Glencoe .json files are accepted.');
    if (file.size > maxBytes) return showFailure(entry, 'This file is larger than the upload limit.');
    if (entryCount() > maxFiles) return showFailure(entry, 'A dataset holds at most ' + maxFiles + ' feature models.');
    setStatus(entry, 'Waiting to upload', 'secondary');
    // staging-turns.js: a few files at a time (extensions section 10).
    turns.add(function () { send(file, entry); });
  }

  /** Sends one file to the staging area on its turn; told 429, it waits as Retry-After says and sends it again. */
  function send(file, entry) {
    // Removed while it waited for its turn: nothing to send.
    if (!entry.isConnected) return turns.done();
    setStatus(entry, 'Uploading…', 'secondary');
    const bar = entry.querySelector('.model-progress .progress-bar');
    let again = false;
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/dataset/file/upload');
    xhr.setRequestHeader('X-CSRFToken', csrfToken());
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.addEventListener('progress', function (e) {
      if (e.lengthComputable) setBar(bar, e.loaded / e.total);
    });
    // Sent: the server checks it now, a heavy job that may wait for its turn.
    xhr.upload.addEventListener('load', function () { setStatus(entry, 'Checking…', 'secondary'); });
    xhr.addEventListener('loadend', function () {
      if (again) return;
      if (!entry.isConnected && entry.dataset.staged) deleteStaged(entry.dataset.staged);
      turns.done();
    });
    xhr.addEventListener('load', function () {
      const body = parseJson(xhr);
      if (xhr.status === 429) {
        // The uploader's share of heavy jobs is taken (other tabs): the file keeps its turn.
        again = true;
        setStatus(entry, 'Waiting for a free turn…', 'secondary');
        setBar(bar, 0);
        setTimeout(function () { send(file, entry); }, 1000 * turns.retryAfterS(xhr));
        return;
      }
      if (xhr.status === 200 && body) {
        // The server keeps both files of the same name as "name (1).uvl"…; the person is told (issue 10).
        const copy = / \(\d+\)\.uvl$/i;
        if (copy.test(body.filename) && !copy.test(file.name)) {
          body.warnings = [file.name + ' was staged already: this file is kept as ' + body.filename + '. Remove one of them if it is the same model.'].concat(body.warnings || []);
        }
        showStaged(entry, body);
      } else if (xhr.status === 302 || xhr.responseURL.indexOf('/login') !== -1) showFailure(entry, 'Your session ended: log in again.');
      else showFailure(entry, (body && (body.message || body.error)) || 'The upload failed (' + xhr.status + ').', body && body.errors);
    });
    xhr.addEventListener('error', function () { showFailure(entry, 'The upload failed: the network is unavailable.'); });
    const data = new FormData();
    data.append('file', file, file.name);
    xhr.send(data);
  }

  // Import from a URL (extensions section 13): the server fetches and stages every model found.
  const importInput = document.getElementById('import-url');
  const importButton = document.getElementById('import-url-button');
  const importStatus = document.getElementById('import-url-status');
  // A refused URL is marked on the field itself (red, and aria-invalid, read out with the reason
  // below it through aria-describedby), as the form's other fields are.
  function markImportField(invalid) {
    importInput.classList.toggle('is-invalid', invalid);
    if (invalid) importInput.setAttribute('aria-invalid', 'true');
    else importInput.removeAttribute('aria-invalid');
  }
  async function importUrl() {
    const url = importInput.value.trim();
    if (url === '') return;
    importButton.disabled = true;
    markImportField(false);
    importStatus.className = 'small mt-1 text-muted';
    importStatus.textContent = 'Fetching…';
    try {
      const response = await fetch('/dataset/file/import', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-CSRFToken': csrfToken(), Accept: 'application/json' },
        body: JSON.stringify({ url: url }),
      });
      const body = await response.json().catch(function () { return null; });
      if (response.ok && body) {
        body.files.forEach(function (staged) { showStaged(newEntry(staged.filename), staged); });
        const refused = (body.refused || []).map(function (r) { return r.name + ': ' + r.message; });
        importStatus.className = 'small mt-1 ' + (refused.length > 0 ? 'text-warning-emphasis' : 'text-success');
        importStatus.textContent = body.message + (refused.length > 0 ? ' ' + refused.join(' ') : '');
        importInput.value = '';
      } else {
        importStatus.className = 'small mt-1 text-danger';
        importStatus.textContent = (body && body.message) || 'The import failed (' + response.status + ').';
        markImportField(true);
      }
    } catch (error) {
      importStatus.className = 'small mt-1 text-danger';
      importStatus.textContent = 'The import failed: the network is unavailable.';
      markImportField(true);
    } finally {
      importButton.disabled = false;
    }
  }
  if (importButton) {
    importButton.addEventListener('click', importUrl);
    importInput.addEventListener('keydown', function (event) {
      if (event.key === 'Enter') { event.preventDefault(); importUrl(); }
    });
  }

  function deleteStaged(name) {
    return fetch('/dataset/file/delete', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRFToken': csrfToken(), Accept: 'application/json' },
      body: JSON.stringify({ file: name }),
    });
  }

  function removeEntry(entry) {
    const name = entry.dataset.staged;
    entry.remove();
    if (name) {
      deleteStaged(name).catch(function () { /* the file stays staged; it is listed again on the next visit */ });
    }
  }

  function stageAll(files) {
    for (const file of Array.from(files)) stage(file);
  }

  dropZone.addEventListener('click', function () { fileInput.click(); });
  dropZone.addEventListener('keydown', function (event) {
    if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); fileInput.click(); }
  });
  fileInput.addEventListener('change', function () {
    stageAll(fileInput.files);
    fileInput.value = '';
  });
  for (const type of ['dragenter', 'dragover']) {
    dropZone.addEventListener(type, function (event) {
      event.preventDefault();
      dropZone.classList.add('dragover');
    });
  }
  for (const type of ['dragleave', 'dragend']) {
    dropZone.addEventListener(type, function () { dropZone.classList.remove('dragover'); });
  }
  dropZone.addEventListener('drop', function (event) {
    event.preventDefault();
    dropZone.classList.remove('dragover');
    if (event.dataTransfer && event.dataTransfer.files) stageAll(event.dataTransfer.files);
  });

  // Files staged on an earlier visit are still waiting in the staging folder: staged-earlier.js shows them.
  window.hubUpload = { stagedEntry: function (staged) { const entry = newEntry(staged.filename); showStaged(entry, staged); return entry; } };

  // ---- submission --------------------------------------------------------------------------------

  /** Gives every field its WTForms-style name, in the order shown (decisions section 4). */
  function nameFields() {
    const setNames = function (container, prefix) {
      Array.from(container.querySelectorAll(':scope > .author-row')).forEach(function (row, i) {
        for (const input of row.querySelectorAll('[data-field]')) input.name = prefix + '-' + i + '-' + input.dataset.field;
      });
    };
    setNames(document.getElementById('authors'), 'authors');
    const entries = Array.from(modelsBox.querySelectorAll('.model-entry')).filter(function (e) { return e.dataset.staged; });
    for (const entry of modelsBox.querySelectorAll('.model-entry [data-field]')) entry.removeAttribute('name');
    entries.forEach(function (entry, j) {
      const prefix = 'feature_models-' + j;
      for (const input of entry.querySelectorAll('[data-field]')) {
        if (!input.closest('.author-row')) input.name = prefix + '-' + input.dataset.field;
      }
      setNames(entry.querySelector('.authors'), prefix + '-authors');
    });
  }

  function showMessage(message) {
    formErrors.replaceChildren(document.createTextNode(message));
    formErrors.classList.remove('d-none');
    formErrors.focus();
  }

  function doiPath(doi) {
    return doi.split('/').map(encodeURIComponent).join('/');
  }

  /** Buttons locked and the progress bar shown while a submission waits or runs; `status` says what it waits for. */
  function busy(on, status) {
    progress.classList.toggle('d-none', !on);
    submitButton.disabled = on;
    if (draftButton) draftButton.disabled = on;
    uploadStatus.textContent = on ? status || '' : '';
    uploadStatus.classList.toggle('d-none', !on || !status);
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    fieldErrors.clear();
    // "Save as draft" is a second submit button: its name and value are the form field draft=1.
    const draft = Boolean(event.submitter && event.submitter.name === 'draft');
    if (turns.pending() === 0) return submit(draft);
    // Files still being staged and checked: the submission waits for them (they are part of it),
    // with its progress shown, and goes once they are; before, the person was told to wait and submit again.
    const waitedFor = Array.from(modelsBox.querySelectorAll('.model-entry')).filter(function (e) { return !e.dataset.staged && !e.dataset.failed; });
    const total = turns.pending();
    const showWait = function () {
      const left = turns.pending();
      busy(true, 'Waiting for ' + left + ' of ' + total + (total === 1 ? ' file' : ' files') + ' to be uploaded and checked; the upload starts then.');
      setBar(progressBar, 0.3 * (total - left) / total);
    };
    showWait();
    const timer = setInterval(showWait, 500);
    turns.whenIdle(function () {
      clearInterval(timer);
      const failed = waitedFor.filter(function (e) { return e.isConnected && e.dataset.failed === 'true'; }).length;
      if (failed === 0) return submit(draft);
      busy(false);
      showMessage(failed + (failed === 1 ? ' file was' : ' files were') + ' not staged (marked below): remove or stage them again, then submit.');
    });
  });

  /** Sends the form; told 429 (the uploader's share of heavy jobs is taken), it waits as Retry-After says and sends it again. */
  function submit(draft) {
    nameFields();
    const body = new URLSearchParams();
    for (const [key, value] of new FormData(form)) {
      if (typeof value === 'string') body.append(key, value);
    }
    if (draft) body.append('draft', '1');
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/dataset/upload');
    xhr.setRequestHeader('Content-Type', 'application/x-www-form-urlencoded');
    xhr.setRequestHeader('X-CSRFToken', csrfToken());
    xhr.setRequestHeader('Accept', 'application/json');
    busy(true);
    setBar(progressBar, 0.3);
    xhr.upload.addEventListener('progress', function (e) {
      // After the staging's share: sending, then the server's checks and the deposit push.
      if (e.lengthComputable) setBar(progressBar, 0.3 + 0.3 * e.loaded / e.total);
    });
    xhr.upload.addEventListener('load', function () { setBar(progressBar, 0.6); });
    xhr.addEventListener('load', function () {
      const data = parseJson(xhr);
      if (xhr.status === 200 && data && data.status === 'ok') {
        setBar(progressBar, 1);
        window.location.assign('/doi/' + doiPath(data.doi) + '/');
        return;
      }
      if (xhr.status === 200 && data && data.status === 'draft') {
        setBar(progressBar, 1);
        window.location.assign(data.url);
        return;
      }
      if (xhr.status === 200 && data && data.status === 'partial') {
        setBar(progressBar, 1);
        window.location.assign('/dataset/unsynchronized/' + data.dataset_id + '/');
        return;
      }
      if (xhr.status === 429) {
        // Nothing was saved and the files are still staged: the same form is sent again.
        const seconds = turns.retryAfterS(xhr);
        busy(true, 'The server is busy with your other requests: the upload is sent again in ' + seconds + ' s.');
        setTimeout(function () { submit(draft); }, 1000 * seconds);
        return;
      }
      busy(false);
      // 502: a new version the deposit refused (nothing saved, the files still staged).
      if ((xhr.status === 400 || xhr.status === 502) && data && data.errors) fieldErrors.show(data.errors);
      else showMessage((data && (data.message || data.error)) || 'The upload failed (' + xhr.status + '). Try again.');
    });
    xhr.addEventListener('error', function () {
      busy(false);
      showMessage('The upload failed: the network is unavailable. Nothing was saved; try again.');
    });
    xhr.send(body.toString());
  }
})();
