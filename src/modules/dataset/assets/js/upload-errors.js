// The upload page's field errors (split from upload.js): a refused submission's errors placed
// beside their fields (a model's file errors in its entry, the rest above the form), and a mark
// taken off once the field passes the rules the page knows.
window.hubUploadErrors = function (form, formErrors, dropZone) {
  'use strict';

  function clearErrors() {
    formErrors.classList.add('d-none');
    formErrors.replaceChildren();
    for (const el of form.querySelectorAll('.is-invalid')) el.classList.remove('is-invalid');
    for (const el of form.querySelectorAll('.js-field-error')) el.remove();
    document.getElementById('feature_models-errors').replaceChildren();
    for (const el of form.querySelectorAll('.model-file-errors')) el.replaceChildren();
  }

  function showErrors(errors) {
    const unplaced = [];
    let first = null;
    for (const [field, messages] of Object.entries(errors)) {
      const text = messages.join(' ');
      // version_of is a hidden field of the form: its errors are about the whole upload.
      const input = field === 'version_of' ? null : form.querySelector('[name="' + CSS.escape(field) + '"]');
      if (field === 'feature_models') {
        document.getElementById('feature_models-errors').textContent = text;
        first = first || dropZone;
      } else if (input && input.type === 'hidden') {
        const entry = input.closest('.model-entry');
        const box = entry.querySelector('.model-file-errors');
        for (const message of messages) {
          const line = document.createElement('div');
          line.textContent = message;
          box.appendChild(line);
        }
        entry.classList.add('border-danger');
        first = first || entry;
      } else if (input) {
        input.classList.add('is-invalid');
        const feedback = document.createElement('div');
        feedback.className = 'invalid-feedback js-field-error';
        feedback.textContent = text;
        input.insertAdjacentElement('afterend', feedback);
        const details = input.closest('details');
        if (details) details.open = true;
        first = first || input;
      } else {
        unplaced.push(field === 'version_of' ? text : field + ': ' + text);
      }
    }
    const summary = document.createElement('div');
    summary.textContent = 'The dataset was not saved: correct the fields marked below.';
    formErrors.appendChild(summary);
    for (const line of unplaced) {
      const item = document.createElement('div');
      item.textContent = line;
      formErrors.appendChild(item);
    }
    formErrors.classList.remove('d-none');
    (first || formErrors).scrollIntoView({ block: 'center' });
    if (first && first.focus) first.focus({ preventScroll: true });
  }

  // ---- re-checking a marked field as it is corrected (issue 10) ------------------------------------
  // The server stays the authority: the next submit checks everything again. Here a field the
  // server marked loses its mark once it passes the rules the page knows, and keeps it otherwise.
  const ORCID = /^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/;
  const DOI = /^(?:https?:\/\/(?:dx\.)?doi\.org\/)?10\.\d{4,9}\/\S+$/i;
  function stillInvalid(input) {
    const value = input.value.trim();
    const field = input.dataset.field || input.name;
    if (input.required && value === '') return true;
    if (field === 'orcid' || /-orcid$/.test(input.name)) return value !== '' && !ORCID.test(value);
    if (field === 'publication_doi' || /publication_doi$/.test(input.name)) return value !== '' && !DOI.test(value);
    if (input.maxLength > 0 && value.length > input.maxLength) return true;
    return false;
  }
  function recheck(event) {
    const input = event.target;
    if (!(input instanceof HTMLElement) || !input.classList.contains('is-invalid') || stillInvalid(input)) return;
    input.classList.remove('is-invalid');
    const feedback = input.nextElementSibling;
    if (feedback && feedback.classList.contains('js-field-error')) feedback.remove();
    if (!form.querySelector('.is-invalid') && !form.querySelector('.model-file-errors :first-child') && !document.getElementById('feature_models-errors').textContent) {
      formErrors.classList.add('d-none');
    }
  }

  form.addEventListener('input', recheck);
  form.addEventListener('change', recheck);
  return { clear: clearErrors, show: showErrors };
};
