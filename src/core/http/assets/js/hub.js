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
  };
})();
