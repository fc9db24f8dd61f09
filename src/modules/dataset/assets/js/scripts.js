// Included on every page (specification: each feature's script). It provides a small UVL
// syntax highlighter and the behaviour of the dataset pages: view a file's source, check a
// model, copy the citation. Each part activates only where its elements exist.
(function () {
  'use strict';

  const KEYWORDS = new Set([
    'namespace', 'features', 'constraints', 'constraint', 'imports', 'include', 'as',
    'mandatory', 'optional', 'alternative', 'or', 'cardinality', 'true', 'false',
    'Boolean', 'Integer', 'Real', 'String', 'sum', 'avg', 'len', 'floor', 'ceil',
  ]);
  // Comments, strings (single quotes) and quoted names (double quotes), numbers, operators, words.
  const TOKEN = /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|("(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)|(\b\d+(?:\.\d+)?\b)|(<=>|=>|==|!=|<=|>=|\.\.|[&|!<>+\-*/[\]=])|([A-Za-z_][A-Za-z0-9_]*)/g;

  function span(cls, text) {
    const el = document.createElement('span');
    el.className = cls;
    el.textContent = text;
    return el;
  }

  /** Fills `target` with the highlighted source; text nodes only, so a model can never inject markup. */
  // The pop-up of a large model (automotive2_4: 22,000 lines) took seconds to highlight token by
  // token (issue 25): only the first lines are highlighted, the rest is one plain text node (the
  // model page highlights every line, in chunks), and plain runs between tokens are one node each.
  const HIGHLIGHT_LINES = 1000;

  function highlightedEnd(source) {
    let end = 0;
    for (let line = 0; line < HIGHLIGHT_LINES; line++) {
      const next = source.indexOf('\n', end);
      if (next < 0) return source.length;
      end = next + 1;
    }
    return end;
  }

  function highlightUvl(source, target) {
    const fragment = document.createDocumentFragment();
    const end = highlightedEnd(source);
    const head = source.slice(0, end);
    let plain = '';
    const flush = function () {
      if (plain !== '') fragment.appendChild(document.createTextNode(plain));
      plain = '';
    };
    const add = function (className, text) {
      flush();
      fragment.appendChild(span(className, text));
    };
    let last = 0;
    TOKEN.lastIndex = 0;
    for (let match = TOKEN.exec(head); match !== null; match = TOKEN.exec(head)) {
      if (match.index > last) plain += head.slice(last, match.index);
      const [text, comment, string, number, operator, word] = match;
      if (comment !== undefined) add('uvl-comment', text);
      else if (string !== undefined) add('uvl-string', text);
      else if (number !== undefined) add('uvl-number', text);
      else if (operator !== undefined) add('uvl-operator', text);
      else if (word !== undefined && KEYWORDS.has(word)) add('uvl-keyword', text);
      else plain += text;
      last = match.index + text.length;
      if (text.length === 0) TOKEN.lastIndex += 1;
    }
    plain += source.slice(last);
    flush();
    target.replaceChildren(fragment);
  }

  window.uvlHighlight = highlightUvl;

  // The check result keeps role=status even for errors: it answers the visitor's own click.
  function alertBox(kind, title, lines) {
    return window.hub.alertBox(kind, title, lines, 'status');
  }

  async function viewFile(button) {
    const modalEl = document.getElementById('file-modal');
    const code = modalEl.querySelector('#file-source code');
    document.getElementById('file-modal-title').textContent = button.dataset.fileName;
    document.getElementById('file-modal-download').href = '/file/download/' + button.dataset.fileId;
    const gutter = modalEl.querySelector('#file-lines');
    if (gutter) gutter.textContent = '';
    code.textContent = 'Loading…';
    window.bootstrap.Modal.getOrCreateInstance(modalEl).show();
    try {
      const response = await fetch('/file/view/' + button.dataset.fileId, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
      const body = await response.json();
      if (response.ok && body && typeof body.content === 'string') {
        highlightUvl(body.content, code);
        // Line numbers, as the checker's messages cite them (issue 10).
        const count = body.content.replace(/\r?\n$/, '').split(/\r?\n/).length;
        if (gutter) gutter.textContent = Array.from({ length: count }, function (_, i) { return String(i + 1); }).join('\n');
      } else code.textContent = (body && (body.error || body.message)) || 'The file could not be read.';
    } catch (e) {
      code.textContent = 'The file could not be loaded.';
    }
  }

  async function checkFile(button) {
    const target = document.getElementById('check-result-' + button.dataset.fileId);
    target.replaceChildren(alertBox('secondary', 'Checking…', []));
    button.disabled = true;
    try {
      const response = await fetch('/modeltool/check_uvl/' + button.dataset.fileId, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
      const body = await response.json().catch(function () { return {}; });
      if (response.status === 200) {
        target.replaceChildren(alertBox('success', body.message || 'Valid Model', (body.warnings || []).map(function (w) { return 'Warning: ' + w; })));
      } else if (response.status === 400) {
        target.replaceChildren(alertBox('danger', 'Syntax errors', (body.errors || []).concat((body.warnings || []).map(function (w) { return 'Warning: ' + w; }))));
      } else {
        target.replaceChildren(alertBox('danger', 'The check failed', [body.error || body.message || 'Status ' + response.status]));
      }
    } catch (e) {
      target.replaceChildren(alertBox('danger', 'The check failed', ['The network is unavailable.']));
    } finally {
      button.disabled = false;
    }
  }

  document.addEventListener('click', function (event) {
    const view = event.target.closest('.js-view-file');
    if (view) { viewFile(view); return; }
    const check = event.target.closest('.js-check-file');
    if (check) { checkFile(check); return; }
    const copy = event.target.closest('.js-copy');
    if (copy) {
      const source = document.getElementById(copy.dataset.copyTarget);
      if (source && navigator.clipboard) {
        navigator.clipboard.writeText(source.textContent.trim()).then(function () {
          copy.textContent = 'Copied';
        }, function () { /* clipboard refused: the text stays selectable */ });
      }
    }
  });
})();
