// auth: disables a login or signup button once pressed, so a double click sends one form.
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.matches('[data-auth-form]')) return;
  const button = form.querySelector('button[type="submit"]');
  if (button) { button.disabled = true; button.textContent = button.dataset.busyLabel || 'Please wait…'; }
});
