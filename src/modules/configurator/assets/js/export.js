// The configurator's exports (JSON, CSV, FeatureIDE configuration XML) of the configuration the
// page shows; apart from configurator.js, which `current()` asks for its decisions and states.
window.configuratorExport = {
  attach(section, current) {
    function download(name, type, text) {
      const a = document.createElement('a');
      Object.assign(a, { href: URL.createObjectURL(new Blob([text], { type })), download: name });
      document.body.append(a);
      a.click();
      a.remove();
    }

    const xmlEscape = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

    section.querySelector('#cfg-tools').addEventListener('click', (event) => {
      const kind = event.target.closest('[data-export]')?.dataset.export;
      if (!kind) return;
      const { decisions, states, remaining } = current();
      const names = Object.keys(states).sort();
      const base = section.dataset.fileName.replace(/\.uvl$/i, '');
      if (kind === 'json') {
        download(`${base}.configuration.json`, 'application/json', `${JSON.stringify({ file: section.dataset.fileName, doi: section.dataset.doi || null, ...decisions, remaining, features: states }, null, 2)}\n`);
      } else if (kind === 'csv') {
        download(`${base}.configuration.csv`, 'text/csv', `feature,state\n${names.map((n) => `${/[",\n]/.test(n) ? `"${n.replace(/"/g, '""')}"` : n},${states[n]}`).join('\n')}\n`);
      } else {
        const manual = { selected: 'selected', deselected: 'unselected' };
        const automatic = { forced: 'selected', excluded: 'unselected' };
        const lines = names.map((n) => `\t<feature automatic="${automatic[states[n]] || 'undefined'}" manual="${manual[states[n]] || 'undefined'}" name="${xmlEscape(n)}"/>`);
        download(`${base}.configuration.xml`, 'application/xml', `<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<configuration>\n${lines.join('\n')}\n</configuration>\n`);
      }
    });
  },
};
