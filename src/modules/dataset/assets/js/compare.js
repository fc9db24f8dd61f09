// The comparison page while edit classes are being decided: asks the server again (it waits a
// moment for them each time) and writes each decided class in place, until none is pending.
(function () {
  'use strict';
  const page = document.getElementById('compare');
  if (!page) return;
  const url = page.dataset.editClasses;
  let failures = 0;

  function show(models) {
    for (const model of models) {
      const section = Array.from(document.querySelectorAll('.model-change')).find((s) => s.dataset.model === model.name);
      const strong = section && section.querySelector('.edit-class');
      if (!strong || strong.dataset.editClass === model.edit_class) continue;
      strong.dataset.editClass = model.edit_class;
      strong.textContent = model.label;
    }
  }

  async function poll() {
    try {
      const response = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
      if (!response.ok) throw new Error(String(response.status));
      const answer = await response.json();
      show(answer.models);
      failures = 0;
      if (!answer.pending) {
        const note = document.getElementById('edit-classes-pending');
        if (note) note.textContent = 'Every edit class is decided.';
        return;
      }
    } catch (error) {
      // A network hiccup: try again a little later, and give up after a few in a row.
      failures += 1;
      if (failures > 5) return;
    }
    setTimeout(poll, 1000);
  }
  setTimeout(poll, 500);
})();
