// The upload page's staging requests take turns (extensions section 10): each staged file is
// checked as a heavy job of its uploader, who holds at most 4 at once, of which the page's own
// checks take at most 2 (the form's data-staging-at-once). Sent all at once, six dropped files
// held the person's whole share, and a configure step in another tab was refused (429). A task
// that is told 429 anyway (other tabs) keeps its turn and is sent again after Retry-After.
// Loaded before upload.js, which stages through it.
(function () {
  'use strict';
  const form = document.getElementById('upload-form');
  if (!form) return;
  const atOnce = Math.max(1, Number(form.dataset.stagingAtOnce) || 2);
  const waiting = [];
  const idle = [];
  let running = 0;
  let pending = 0;

  function pump() {
    while (running < atOnce && waiting.length > 0) {
      running += 1;
      waiting.shift()();
    }
  }

  window.hubStagingTurns = {
    /** Queues `task`, which is called on its turn and must call done() once, when its file is settled. */
    add: function (task) {
      pending += 1;
      waiting.push(task);
      pump();
    },
    done: function () {
      running -= 1;
      pending -= 1;
      pump();
      if (pending === 0) idle.splice(0).forEach(function (callback) { callback(); });
    },
    /** Files queued, being sent or waiting to be sent again. */
    pending: function () { return pending; },
    /** Calls `callback` once nothing is pending (at once when nothing is). */
    whenIdle: function (callback) {
      if (pending === 0) callback();
      else idle.push(callback);
    },
    /** The seconds a 429 answer asks to wait (its Retry-After), within 1 to 60. */
    retryAfterS: function (xhr) {
      const seconds = Number(xhr.getResponseHeader('Retry-After'));
      return Number.isFinite(seconds) && seconds > 0 ? Math.min(60, Math.max(1, seconds)) : 2;
    },
  };
})();
