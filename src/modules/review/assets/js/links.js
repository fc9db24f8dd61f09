// The review links page: Copy puts the new link on the clipboard. The asynchronous clipboard
// needs a secure context (HTTPS or localhost); elsewhere, or when it is refused, the link is
// selected and the status says to copy it by hand.
(function () {
  'use strict';
  const button = document.getElementById('review-link-copy');
  const link = document.getElementById('review-link');
  const status = document.getElementById('review-link-copy-status');
  if (!button || !link || !status) return;

  function selectLink() {
    const range = document.createRange();
    range.selectNodeContents(link);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function copyThroughSelection() {
    selectLink();
    let copied = false;
    try { copied = document.execCommand('copy'); } catch (error) { copied = false; }
    return copied;
  }

  function finish(copied) {
    if (copied) {
      status.textContent = 'Copied the link to the clipboard.';
    } else {
      selectLink();
      status.textContent = 'Copying is not available here: the link is selected, copy it with Ctrl+C (or long-press on a phone).';
    }
  }

  button.hidden = false;
  button.addEventListener('click', function () {
    const text = link.textContent.trim();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { finish(true); }, function () { finish(copyThroughSelection()); });
    } else {
      finish(copyThroughSelection());
    }
  });
})();
