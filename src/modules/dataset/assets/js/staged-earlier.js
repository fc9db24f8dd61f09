// Files staged on an earlier visit of the upload page (issue 37, item 9). A new version's are the
// current version's files, copied for it: they belong to the upload. Otherwise they are left over
// from an upload never submitted and are shown apart, each with its check, to add or to remove;
// they are not submitted unless added, so a broken leftover no longer blocks the form (a 400
// until it was removed). Loaded after upload.js, which makes the entries.
(function () {
  'use strict';
  const form = document.getElementById('upload-form');
  if (!form || !window.hubUpload) return;
  const models = document.getElementById('models');
  const section = document.getElementById('staged-earlier');
  const list = document.getElementById('staged-earlier-models');

  let staged = [];
  try {
    staged = JSON.parse(form.dataset.staged || '[]');
  } catch (e) { /* nothing staged */ }

  const showSection = function () { section.hidden = list.querySelector('.model-entry') === null; };

  for (const file of staged) {
    const entry = window.hubUpload.stagedEntry(file);
    if (!section) continue;
    const add = document.createElement('button');
    add.type = 'button';
    add.className = 'btn btn-sm btn-outline-primary ms-auto js-add-staged';
    add.innerHTML = '<i class="bi bi-plus-lg" aria-hidden="true"></i> Add to this upload<span class="visually-hidden">: </span>';
    // The visible words first, then the file's name (heard, not shown): the accessible name holds the visible text.
    add.querySelector('.visually-hidden').append(file.filename);
    const remove = entry.querySelector('.js-remove-model');
    remove.classList.remove('ms-auto');
    remove.parentElement.insertBefore(add, remove);
    list.appendChild(entry);
  }
  if (!section) return;
  showSection();

  list.addEventListener('click', function (event) {
    const add = event.target.closest('.js-add-staged');
    if (add) {
      const entry = add.closest('.model-entry');
      entry.querySelector('.js-remove-model').classList.add('ms-auto');
      add.remove();
      models.appendChild(entry);
    }
  });
  // upload.js removes an entry (and its staged file) on its Remove button; the section goes when empty.
  new MutationObserver(showSection).observe(list, { childList: true });
})();
