// Template filters shared by every page.
import type nunjucks from 'nunjucks';

/** Bytes as a person reads them: bytes, KB, MB or GB (specification, Hubfile.size). */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(2)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(2)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

export function registerTemplateFilters(env: nunjucks.Environment): void {
  env.addFilter('humanSize', (value: unknown) => humanSize(Number(value) || 0));
  env.addFilter('date', (value: unknown) => {
    const date = new Date(String(value));
    return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 10);
  });
  env.addFilter('datetime', (value: unknown) => {
    const date = new Date(String(value));
    return Number.isNaN(date.getTime()) ? '' : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  });
}
