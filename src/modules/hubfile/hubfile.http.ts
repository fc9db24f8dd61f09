// The attachment header of file answers (downloads here, exports in modeltool).

/**
 * `Content-Disposition: attachment` for a stored name: a plain ASCII `filename` for old
 * clients (quotes, backslashes, controls and non-ASCII replaced) and the exact name as
 * RFC 5987 `filename*`.
 */
export function attachmentHeader(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}
