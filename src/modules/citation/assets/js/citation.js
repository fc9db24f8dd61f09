// The DOI page's citation box: the format switcher and the Copy button. The asynchronous
// clipboard needs a secure context (HTTPS or localhost); elsewhere, or when it is refused, the
// text is copied through a selection, and if even that fails it is left selected for the reader.
(function () {
  'use strict';
  const box = document.querySelector('[data-citation-box]');
  if (!box) return;
  const select = box.querySelector('#citation-format');
  const button = box.querySelector('.js-citation-copy');
  const status = box.querySelector('#citation-copy-status');
  const entries = Array.prototype.slice.call(box.querySelectorAll('.citation-entry'));
  let clearTimer = null;

  box.querySelector('.citation-switcher').hidden = false;

  function current() {
    return entries.find(function (entry) { return entry.dataset.format === select.value; }) || entries[0];
  }

  function say(message, ok) {
    status.textContent = message;
    status.classList.toggle('text-success', ok);
    status.classList.toggle('text-body-secondary', !ok);
    if (clearTimer) clearTimeout(clearTimer);
    if (ok) clearTimer = setTimeout(function () { status.textContent = ''; }, 4000);
  }

  /** The entry's text, fetched from its export address the first time (only the first format is in the page). */
  function load(entry) {
    if (!entry.dataset.src) return Promise.resolve(entry.textContent);
    if (!entry.loading) {
      entry.setAttribute('aria-busy', 'true');
      entry.textContent = 'Loading…';
      entry.loading = fetch(entry.dataset.src, { credentials: 'same-origin' }).then(function (response) {
        if (!response.ok) throw new Error('HTTP ' + response.status);
        return response.text();
      }).then(function (text) {
        entry.textContent = text;
        delete entry.dataset.src;
        return text;
      }, function () {
        entry.textContent = 'This format could not be loaded; use its download link below.';
        entry.loading = null;
        throw new Error('not loaded');
      }).finally(function () { entry.removeAttribute('aria-busy'); });
    }
    return entry.loading;
  }

  select.addEventListener('change', function () {
    entries.forEach(function (entry) { entry.hidden = entry.dataset.format !== select.value; });
    status.textContent = '';
    load(current()).catch(function () { /* the entry says so */ });
  });

  function copyThroughSelection(text) {
    const buffer = document.createElement('textarea');
    buffer.value = text;
    buffer.setAttribute('readonly', '');
    buffer.setAttribute('aria-hidden', 'true');
    buffer.className = 'citation-copy-buffer';
    document.body.appendChild(buffer);
    buffer.select();
    buffer.setSelectionRange(0, text.length);
    let copied = false;
    try { copied = document.execCommand('copy'); } catch (error) { copied = false; }
    document.body.removeChild(buffer);
    button.focus();
    return copied;
  }

  function selectEntry(entry) {
    const range = document.createRange();
    range.selectNodeContents(entry);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function finish(copied, entry, label) {
    if (copied) {
      say('Copied ' + label + ' to the clipboard.', true);
    } else {
      selectEntry(entry);
      say('Copying is not available here: the text is selected, copy it with Ctrl+C (or long-press on a phone).', false);
    }
  }

  button.addEventListener('click', function () {
    const entry = current();
    const label = select.options[select.selectedIndex].text;
    load(entry).then(function (text) { copy(entry, text, label); }, function () {
      say('This format could not be loaded; use its download link below.', false);
    });
  });

  function copy(entry, text, label) {
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(
        function () { finish(true, entry, label); },
        function () { finish(copyThroughSelection(text), entry, label); });
    } else {
      finish(copyThroughSelection(text), entry, label);
    }
  }
})();
