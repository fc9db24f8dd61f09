// Unsaved text survives a reload: each change is written to local storage (after a short pause,
// and at once when the page goes away), and a stored text that differs from what the page opened
// with is restored with a notice that says so and offers to discard it. Nothing is dropped silently.
const WRITE_AFTER_MS = 400;

interface Stored {
  text: string;
  /** The text the page opened with when the change was made: a different base is still restored, and said. */
  base: string;
  savedAt: string;
}

export interface LocalDraft {
  /** The text to open: the stored one when there is one. */
  text: string;
  changed(current: () => string): void;
  /** The text was posted to the hub: the stored copy is no longer the only one. */
  submitted(): void;
}

function read(key: string): Stored | undefined {
  try {
    const raw = localStorage.getItem(key);
    const value = raw ? JSON.parse(raw) as Stored : undefined;
    return value && typeof value.text === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

export function keepDraft(key: string, initial: string, notice: HTMLElement): LocalDraft {
  const stored = read(key);
  let pending: (() => string) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = (): void => {
    clearTimeout(timer);
    if (!pending) return;
    const text = pending();
    pending = undefined;
    try {
      if (text === initial) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify({ text, base: initial, savedAt: new Date().toISOString() } satisfies Stored));
    } catch {
      notice.hidden = false;
      notice.textContent = 'Your browser did not let the editor keep a copy of your changes: save them before leaving.';
    }
  };
  window.addEventListener('pagehide', flush);
  window.addEventListener('beforeunload', flush);

  const restored = stored !== undefined && stored.text !== initial;
  if (restored) {
    notice.hidden = false;
    notice.textContent = `Restored your unsaved changes from ${new Date(stored.savedAt).toLocaleString()}. `;
    const discard = document.createElement('button');
    discard.type = 'button';
    discard.id = 'discard-draft';
    discard.className = 'btn btn-sm btn-outline-secondary ms-1';
    discard.textContent = 'Discard them and reload';
    discard.addEventListener('click', () => {
      pending = undefined;
      clearTimeout(timer);
      localStorage.removeItem(key);
      window.removeEventListener('pagehide', flush);
      window.removeEventListener('beforeunload', flush);
      window.location.reload();
    });
    notice.append(discard);
  }
  return {
    text: restored ? stored.text : initial,
    changed(current) {
      pending = current;
      clearTimeout(timer);
      timer = setTimeout(flush, WRITE_AFTER_MS);
    },
    submitted() {
      pending = undefined;
      clearTimeout(timer);
      localStorage.removeItem(key);
    },
  };
}
