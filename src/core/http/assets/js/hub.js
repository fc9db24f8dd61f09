// Shared browser helpers for every page: the CSRF token for fetch calls, copy buttons.
(function () {
  'use strict';
  const meta = document.querySelector('meta[name="csrf-token"]');
  window.hub = {
    csrfToken: meta ? meta.getAttribute('content') : '',
    /** fetch with the session cookie and the CSRF header (decisions section 3). */
    fetch(url, options = {}) {
      const headers = new Headers(options.headers || {});
      headers.set('X-CSRFToken', window.hub.csrfToken);
      return fetch(url, { credentials: 'same-origin', ...options, headers });
    },
    /** A small Bootstrap alert: a bold title and, when given, a list of lines (errors, warnings). */
    alertBox(kind, title, lines, role) {
      const box = document.createElement('div');
      box.className = 'alert alert-' + kind + ' small mt-2 mb-0';
      box.setAttribute('role', role || (kind === 'danger' ? 'alert' : 'status'));
      const head = document.createElement('div');
      head.className = 'fw-semibold';
      head.textContent = title;
      box.appendChild(head);
      if (lines.length > 0) {
        const list = document.createElement('ul');
        list.className = 'mb-0 ps-3';
        for (const line of lines) {
          const item = document.createElement('li');
          item.textContent = line;
          list.appendChild(item);
        }
        box.appendChild(list);
      }
      return box;
    },
  };

  // A button with data-copy-target="<id>" copies that field's value. The asynchronous clipboard
  // needs a secure context (HTTPS or localhost); elsewhere the text is selected and copied
  // through the selection, and if even that fails it stays selected for the reader.
  function copyField(button) {
    const field = document.getElementById(button.getAttribute('data-copy-target'));
    const status = document.getElementById(button.getAttribute('aria-describedby'));
    if (!field) return;
    const say = function (text) { if (status) status.textContent = text; };
    const viaSelection = function () {
      field.focus();
      field.select();
      let copied = false;
      try { copied = document.execCommand('copy'); } catch (e) { copied = false; }
      say(copied ? 'Copied to the clipboard.' : 'The text is selected: copy it with Ctrl+C (or long-press on a phone).');
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(function () { say('Copied to the clipboard.'); }, viaSelection);
    } else {
      viaSelection();
    }
  }
  document.addEventListener('click', function (event) {
    const button = event.target instanceof Element ? event.target.closest('[data-copy-target]') : null;
    if (button) copyField(button);
  });
})();
