// Tags as stored: one comma-separated text (decisions section 4). Datasets and their feature
// models both carry such a text, and the modules that read them (dataset, featuremodel) require each
// other, so the reading is core's rather than one of theirs.

/**
 * Tags are one comma-separated text, trimmed, empty ones dropped (decisions section 4); null when none.
 * Tags differing only in case are one tag (the search treats them alike): the first spelling stays.
 */
export function normalizeTags(raw: string | string[] | undefined | null): string | null {
  const seen = new Set<string>();
  const parts = (Array.isArray(raw) ? raw : String(raw ?? '').split(','))
    .map((t) => String(t).trim()).filter((t) => {
      const key = t.toLowerCase();
      if (t === '' || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  return parts.length > 0 ? parts.join(', ') : null;
}

export function splitTags(tags: string | null): string[] {
  return (tags ?? '').split(',').map((t) => t.trim()).filter((t) => t !== '');
}
