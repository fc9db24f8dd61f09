// The name and address every citation format gives a dataset's licence: the dataset module's
// list (extensions section 2), whose one place of truth is its licenses.ts.
import { licenseLabel, licenseUrl } from '../dataset/index.ts';

export interface LicenseInfo {
  spdx: string;
  name: string;
  url: string;
}

export function licenseInfo(spdx: string): LicenseInfo {
  return { spdx, name: licenseLabel(spdx), url: licenseUrl(spdx) };
}
