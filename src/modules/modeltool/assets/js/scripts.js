// Included on every page. An export link answers a file, or a JSON error when the model
// cannot be converted (syntax errors, a constraint naming an unknown feature). Rather than
// leave the page for a bare JSON error, the export is fetched: a file is saved under its
// attachment name, an error is shown beside the file (or in an alert where there is no place).
(function () {
  'use strict';

  function attachmentName(response, fallback) {
    const header = response.headers.get('content-disposition') || '';
    const exact = /filename\*=UTF-8''([^;]+)/i.exec(header);
    if (exact) {
      try { return decodeURIComponent(exact[1]); } catch (e) { /* fall through to the plain name */ }
    }
    const plain = /filename="([^"]*)"/i.exec(header);
    return plain ? plain[1] : fallback;
  }

  function showError(fileId, message, details) {
    const target = document.getElementById('check-result-' + fileId);
    if (!target) {
      window.alert([message].concat(details).join('\n'));
      return;
    }
    const box = window.hub.alertBox('danger', message, details, 'alert');
    target.replaceChildren(box);
  }

  async function exportModel(link) {
    const match = /\/modeltool\/to_\w+\/(\d+)/.exec(link.getAttribute('href'));
    const fileId = match ? match[1] : '';
    link.setAttribute('aria-busy', 'true');
    try {
      const response = await fetch(link.href, { credentials: 'same-origin' });
      if (!response.ok) {
        const body = await response.json().catch(function () { return {}; });
        showError(fileId, body.error || ('The export failed (status ' + response.status + ').'), body.errors || []);
        return;
      }
      const url = URL.createObjectURL(await response.blob());
      const save = document.createElement('a');
      save.href = url;
      save.download = attachmentName(response, 'export.txt');
      document.body.appendChild(save);
      save.click();
      save.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
    } catch (e) {
      showError(fileId, 'The export failed: the network is unavailable.', []);
    } finally {
      link.removeAttribute('aria-busy');
    }
  }

  document.addEventListener('click', function (event) {
    const link = event.target.closest('a[href^="/modeltool/to_"]');
    // A modified click (new tab, save as) keeps the browser's own behaviour.
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    exportModel(link);
  });
})();
