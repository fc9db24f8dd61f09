// "Cite this sample" (issue 37, item 6): who made the dataset, when, its DOI, and what exactly was
// drawn from which file (kind, parameters, seed, engine version), as text, BibTeX and CSL-JSON.
// Built from the request alone: the sample's key holds the engine version, so the same address
// with the same engine gives the same sample whether it is computed yet or not.
import { ENGINE_VERSION } from '../../../packages/analysis/src/index.ts';
import { formatNameList } from '../../../packages/uvl/src/index.ts';
import type { SampleRequest } from './configurator.params.ts';

export interface CitedDataset {
  title: string;
  authors: { name: string; orcid: string | null }[];
  /** When the dataset was published, else created (ISO): its year is the citation's. */
  publishedAt: string;
  doi: string | null;
}

export interface SampleCitation {
  text: string;
  bibtex: string;
  csl: Record<string, unknown>;
}

/** The sample's parameters as people read them (and as the address holds them). */
function parametersOf(request: SampleRequest): string {
  if (request.op === 'twise') return `t=${request.t}`;
  const parts = [`n=${request.n}`];
  if (request.selected.length > 0) parts.push(`select=${formatNameList(request.selected)}`);
  if (request.deselected.length > 0) parts.push(`deselect=${formatNameList(request.deselected)}`);
  return parts.join(', ');
}

/** BibTeX's special characters, escaped so a title or name cannot end a field. */
const bib = (text: string) => text.replace(/[\\{}]/g, (c) => `\\${c}`).replace(/[&%$#_]/g, (c) => `\\${c}`).replace(/[~^]/g, (c) => `\\${c}{}`);

/** "Family, Given" when the name has both (CSL wants them apart); one part stays literal. */
function cslName(name: string): Record<string, string> {
  const comma = name.indexOf(',');
  if (comma > 0) return { family: name.slice(0, comma).trim(), given: name.slice(comma + 1).trim() };
  const space = name.trim().lastIndexOf(' ');
  return space > 0 ? { family: name.trim().slice(space + 1), given: name.trim().slice(0, space) } : { literal: name.trim() };
}

export function sampleCitation(dataset: CitedDataset, fileName: string, request: SampleRequest, url: string): SampleCitation {
  const year = dataset.publishedAt.slice(0, 4);
  const names = dataset.authors.map((a) => a.name);
  const kind = request.op === 'twise' ? `${request.t}-wise` : 'uniform';
  const parameters = parametersOf(request);
  const title = `${kind} sample of ${fileName} (${parameters}, seed ${request.seed}) from "${dataset.title}"`;
  const doiText = dataset.doi ? `https://doi.org/${dataset.doi}` : 'no DOI yet (the dataset is not published)';
  const text = `${names.join(', ') || 'Anonymous'} (${year}). ${dataset.title}. ${doiText}. File ${fileName}, ${kind} sample, `
    + `parameters ${parameters}, seed ${request.seed}, UVL Hub engine version ${ENGINE_VERSION}. Retrieved from ${url}`;
  const key = `${(names[0] ?? 'uvlhub').split(/[\s,]+/)[0]!.replace(/[^A-Za-z0-9]/g, '') || 'uvlhub'}${year}sample${request.seed}`;
  const fields: [string, string][] = [
    ['author', names.map(bib).join(' and ') || 'Anonymous'],
    ['title', `{${bib(title)}}`],
    ['year', year],
    ...(dataset.doi ? [['doi', bib(dataset.doi)] as [string, string]] : []),
    ['url', bib(url)],
    ['note', bib(`File ${fileName}; kind ${kind}; parameters ${parameters}; seed ${request.seed}; engine version ${ENGINE_VERSION}`)],
    ['version', ENGINE_VERSION],
  ];
  const bibtex = `@misc{${key},\n${fields.map(([k, v]) => `  ${k} = {${v}}`).join(',\n')}\n}\n`;
  const csl: Record<string, unknown> = {
    id: key,
    type: 'dataset',
    title,
    author: dataset.authors.map((a) => cslName(a.name)),
    issued: { 'date-parts': [[Number(year)]] },
    ...(dataset.doi ? { DOI: dataset.doi } : {}),
    URL: url,
    'container-title': dataset.title,
    version: ENGINE_VERSION,
    note: `File ${fileName}; kind ${kind}; parameters ${parameters}; seed ${request.seed}; engine version ${ENGINE_VERSION}`,
    publisher: 'UVL Hub',
  };
  return { text, bibtex, csl };
}
