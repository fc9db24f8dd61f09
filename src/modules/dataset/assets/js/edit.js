// The dataset edit page: add and remove author rows. Without this script the form still works:
// it always shows one empty row, and a row left empty is not an author.
(function () {
  'use strict';
  const form = document.getElementById('edit-form');
  if (!form) return;
  const box = document.getElementById('authors');
  const template = document.getElementById('author-template');
  let next = Number(form.dataset.nextAuthor) + 1;

  form.addEventListener('click', function (event) {
    if (event.target.closest('.js-add-author')) {
      // Each row gets a fresh index, so that the server's errors name the row they belong to.
      const html = template.innerHTML.split('__index__').join(String(next));
      next += 1;
      box.insertAdjacentHTML('beforeend', html);
      box.lastElementChild.querySelector('input').focus();
      return;
    }
    const remove = event.target.closest('.js-remove-author');
    if (remove) {
      const row = remove.closest('.author-row');
      const following = row.nextElementSibling || row.previousElementSibling;
      row.remove();
      const focusTarget = following ? following.querySelector('input') : form.querySelector('.js-add-author');
      if (focusTarget) focusTarget.focus();
    }
  });
})();
