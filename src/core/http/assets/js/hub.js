// Shared browser helpers for every page: the CSRF token for fetch calls.
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
})();
