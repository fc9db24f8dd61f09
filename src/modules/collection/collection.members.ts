// A collection's members as its page, its downloads and the API show them (extensions section 13):
// the files through the cart's entries (name, dataset, DOI), their facts from the analysis module
// when it is enabled, their SHA-256 read from the store, and the citations of their datasets.
import { createHash } from 'node:crypto';
import type { ModuleContext } from '../../core/modules.ts';
import type { CartEntry } from '../cart/index.ts';
import * as repo from './collection.repository.ts';

export interface MemberFacts {
  file_id: number;
  file_name: string;
  dataset_id: number;
  dataset_title: string;
  dataset_doi: string | null;
  features: number | null;
  constraints: number | null;
  /** Decimal digits: the count may exceed any number type. */
  configurations: string | null;
  core: number | null;
  dead: number | null;
  false_optional: number | null;
}

export interface MemberHash { file_id: number; dataset_doi: string | null; file_name: string; sha256: string | null }

/** The members the viewer may see, in the order added, with their datasets; none of a collection the viewer may not see. */
export async function memberEntries(ctx: ModuleContext, id: number, viewerId: number | null): Promise<CartEntry[]> {
  const row = await repo.findCollection(ctx.db, id);
  if (!row || (row.doi === null && Number(row.user_id) !== viewerId)) return [];
  return ctx.services.cart.entries(await repo.memberIds(ctx.db, id), viewerId);
}

/** Each member with its facts (features, constraints, configurations, anomalies); null until analysed or without analysis. */
export async function memberFacts(ctx: ModuleContext, id: number, viewerId: number | null): Promise<MemberFacts[]> {
  const entries = await memberEntries(ctx, id, viewerId);
  const facts = ctx.isEnabled('analysis')
    ? new Map((await ctx.services.analysis.facts(entries.map((e) => ({ id: e.fileId, name: e.fileName })))).map((f) => [f.file_id, f]))
    : new Map();
  return entries.map((e) => {
    const f = facts.get(e.fileId);
    return {
      file_id: e.fileId, file_name: e.fileName, dataset_id: e.datasetId, dataset_title: e.datasetTitle, dataset_doi: e.doi,
      features: f?.features ?? null, constraints: f?.constraints ?? null, configurations: f?.configurations ?? null,
      core: f?.core ?? null, dead: f?.dead ?? null, false_optional: f?.false_optional ?? null,
    };
  });
}

/** SHA-256 of a file's stored bytes, or null when they are missing from the store. */
export async function fileSha256(ctx: ModuleContext, fileId: number, viewerId: number | null): Promise<{ sha256: string; bytes: Buffer } | null> {
  const file = await ctx.services.hubfile.getVisibleFile(fileId, viewerId);
  const opened = file && (await ctx.services.hubfile.openStream(file));
  if (!opened) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of opened.stream) chunks.push(Buffer.from(chunk as Buffer));
  const bytes = Buffer.concat(chunks);
  return { sha256: createHash('sha256').update(bytes).digest('hex'), bytes };
}

/** The API's members: file id, dataset DOI, file name and SHA-256, one file read at a time. */
export async function membersWithHashes(ctx: ModuleContext, id: number, viewerId: number | null): Promise<MemberHash[]> {
  const result: MemberHash[] = [];
  for (const e of await memberEntries(ctx, id, viewerId)) {
    result.push({ file_id: e.fileId, dataset_doi: e.doi, file_name: e.fileName, sha256: (await fileSha256(ctx, e.fileId, viewerId))?.sha256 ?? null });
  }
  return result;
}

/** Each member dataset with a DOI once, with its BibTeX from the citation module (when enabled). */
export async function citationsOf(ctx: ModuleContext, id: number, viewerId: number | null): Promise<{ doi: string; title: string; bibtex: string }[]> {
  const entries = await memberEntries(ctx, id, viewerId);
  const ids = [...new Set(entries.filter((e) => e.doi !== null).map((e) => e.datasetId))];
  if (ids.length === 0) return [];
  const datasets = (await ctx.services.dataset.summariesOf(ids)).filter((d) => d.doi !== null);
  return datasets.map((d) => ({
    doi: d.doi!, title: d.title, bibtex: ctx.isEnabled('citation') ? ctx.services.citation.fileFor(d, 'bibtex').body.trim() : '',
  }));
}

const csvField = (value: unknown) => {
  const text = value === null || value === undefined ? '' : String(value);
  // A leading = + - @ would be a formula in a spreadsheet: quoted with a ' before it.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n']/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export const FACT_COLUMNS = ['file_id', 'file_name', 'dataset_id', 'dataset_title', 'dataset_doi', 'features', 'constraints', 'configurations', 'core', 'dead', 'false_optional'] as const;

export function factsCsv(rows: MemberFacts[]): string {
  return [FACT_COLUMNS.join(','), ...rows.map((r) => FACT_COLUMNS.map((c) => csvField(r[c])).join(','))].join('\r\n') + '\r\n';
}
