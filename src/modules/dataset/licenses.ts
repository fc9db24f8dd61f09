// The licences a dataset may carry (extensions section 2): SPDX identifiers from a short list,
// the one place that knows them. The upload form, the edit form, the API and the deposit read
// them from here.

/** [SPDX id, label, the licence text's address]. */
export const LICENSES = [
  ['CC-BY-4.0', 'Creative Commons Attribution 4.0 International', 'https://creativecommons.org/licenses/by/4.0/legalcode'],
  ['CC0-1.0', 'Creative Commons Zero 1.0 Universal (public domain)', 'https://creativecommons.org/publicdomain/zero/1.0/legalcode'],
  ['CC-BY-SA-4.0', 'Creative Commons Attribution Share Alike 4.0 International', 'https://creativecommons.org/licenses/by-sa/4.0/legalcode'],
  ['MIT', 'MIT License', 'https://opensource.org/licenses/MIT'],
  ['Apache-2.0', 'Apache License 2.0', 'https://www.apache.org/licenses/LICENSE-2.0'],
  ['GPL-3.0-only', 'GNU General Public License v3.0 only', 'https://www.gnu.org/licenses/gpl-3.0-standalone.html'],
] as const;

export type License = (typeof LICENSES)[number][0];

/** What a dataset gets when nobody chose (also what the migration gave the datasets that existed). */
export const DEFAULT_LICENSE: License = 'CC-BY-4.0';

export const LICENSE_IDS: readonly License[] = LICENSES.map(([id]) => id);

const LABELS = new Map<string, string>(LICENSES.map(([id, label]) => [id, label]));
const TEXTS = new Map<string, string>(LICENSES.map(([id, , url]) => [id, url]));

export function isLicense(value: string): value is License {
  return LABELS.has(value);
}

export function licenseLabel(id: string): string {
  return LABELS.get(id) ?? id;
}

/** The licence's text; an identifier outside the list, its reference page on spdx.org. */
export function licenseUrl(id: string): string {
  return TEXTS.get(id) ?? `https://spdx.org/licenses/${encodeURIComponent(id)}.html`;
}

/** The message of a refused value, the same for the forms and the API. */
export const UNKNOWN_LICENSE = `Not a known licence: choose one of ${LICENSE_IDS.join(', ')}.`;
