// profile: formats an ORCID as it is typed (digits in groups of four), so the format error is rare.
document.addEventListener('input', (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || input.id !== 'orcid') return;
  const raw = input.value.toUpperCase().replace(/[^0-9X]/g, '').slice(0, 16);
  const grouped = raw.match(/.{1,4}/g);
  const formatted = grouped ? grouped.join('-') : '';
  if (formatted !== input.value && input.selectionStart === input.value.length) input.value = formatted;
});
