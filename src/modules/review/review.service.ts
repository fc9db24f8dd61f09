// Review links (extensions section 8): the owner of a dataset makes a secret link that shows the
// dataset without its authors, their ORCID iDs and affiliations, or the owner, until a date or
// until revoked. The service answers only the anonymous view of a dataset (anonymousView): the
// routes never hold a DatasetSummary, so no page, file list or zip under /review/ can show a name.
// Each operation is an exported function taking the module context first, bound once below.
import { createHash, randomBytes } from 'node:crypto';
import type { ModuleContext } from '../../core/modules.ts';
import { bindOperations } from '../../core/operations.ts';
import { badRequest, notFound } from '../../core/http/errors.ts';
import { licenseLabel, licenseUrl } from '../dataset/index.ts';
import type { ExportTarget } from '../modeltool/index.ts';
import * as repo from './review.repository.ts';
import { anonymousModel, type AnonymousModel } from './review.model.ts';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const today = () => new Date().toISOString().slice(0, 10);

/** What a reviewer sees of a dataset: no person anywhere, models without their own authors. */
export interface AnonymousDataset {
  title: string;
  description: string;
  tags: string[];
  license: { label: string; url: string | null };
  publicationTypeLabel: string;
  models: { title: string; description: string; files: { id: number; name: string; sizeHuman: string }[] }[];
}

async function ownedDataset(ctx: ModuleContext, datasetId: number, userId: number) {
  const ref = await ctx.services.dataset.getOwnerRef(datasetId);
  // Another user's dataset answers like a missing one (decisions section 4).
  if (!ref || ref.userId !== userId) throw notFound('No such dataset among yours.');
  return ref;
}

/** The link of a token, when it is still valid (not revoked, not past its day); else 404. */
async function validLink(ctx: ModuleContext, token: string): Promise<repo.ReviewLinkRow> {
  const link = TOKEN.test(token) ? await repo.findByTokenHash(ctx.db, hashOf(token)) : undefined;
  if (!link || link.revoked_at !== null || link.expires_on < today()) throw notFound('This review link does not exist, has expired or was revoked.');
  return link;
}

/**
 * The last day a new link may have: one year from today (a review does not take longer, and a
 * forgotten link should not stay open for ever; 9999-12-31 was accepted).
 */
export function latestExpiry(now = new Date()): string {
  const day = new Date(Date.UTC(now.getUTCFullYear() + 1, now.getUTCMonth(), now.getUTCDate()));
  return day.toISOString().slice(0, 10);
}

/** Refusals of the form, each for one of its fields (the page shows it under that field). */
const formError = (field: 'expires', message: string) => badRequest(message, { field });

/**
 * What the owner's page needs: the links, and the dataset's DOI when it is published. A published
 * dataset's DOI page names its authors, so a reviewer who searches for the title can find them:
 * the page warns above the form and again beside a new link, but the link is made all the same
 * (extensions section 8 asks only for `expires`).
 */
export async function overview(ctx: ModuleContext, datasetId: number, userId: number): Promise<{ links: repo.ReviewLinkRow[]; published: boolean; doi: string | null }> {
  const ref = await ownedDataset(ctx, datasetId, userId);
  return { links: await repo.linksOf(ctx.db, datasetId), published: ref.doi !== null, doi: ref.doi };
}

/**
 * A new link valid through `expires` (YYYY-MM-DD, from today to one year ahead); answers the
 * token, shown once. A published dataset gets one too: the pages warn (see overview).
 */
export async function create(ctx: ModuleContext, datasetId: number, userId: number, expires: string): Promise<string> {
  await ownedDataset(ctx, datasetId, userId);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(expires) || Number.isNaN(Date.parse(`${expires}T00:00:00Z`)) || new Date(`${expires}T00:00:00Z`).toISOString().slice(0, 10) !== expires) {
    throw formError('expires', 'Give the last day of the link as a date, YYYY-MM-DD.');
  }
  if (expires < today()) throw formError('expires', 'The link must stay valid at least until today.');
  const latest = latestExpiry();
  if (expires > latest) throw formError('expires', `A review link lasts at most one year: choose a day up to ${latest}.`);
  const token = randomBytes(32).toString('base64url');
  await repo.insertLink(ctx.db, datasetId, hashOf(token), expires);
  return token;
}

export async function revoke(ctx: ModuleContext, datasetId: number, userId: number, linkId: number): Promise<void> {
  await ownedDataset(ctx, datasetId, userId);
  if (!(await repo.revoke(ctx.db, datasetId, linkId))) throw notFound('No such review link, or it is revoked already.');
}

/** The dataset of a valid link, anonymous; `countView` for the page itself (views counted apart). */
export async function anonymousView(ctx: ModuleContext, token: string, countView = false): Promise<{ dataset: AnonymousDataset; datasetId: number }> {
  const link = await validLink(ctx, token);
  const [summary] = await ctx.services.dataset.summariesOf([link.dataset_id]);
  if (!summary) throw notFound('This review link does not exist, has expired or was revoked.');
  if (countView) await repo.countView(ctx.db, link.id);
  return {
    datasetId: summary.id,
    dataset: {
      title: summary.title,
      description: summary.description,
      tags: summary.tags,
      license: { label: licenseLabel(summary.license), url: licenseUrl(summary.license) },
      publicationTypeLabel: summary.publicationTypeLabel,
      models: summary.featureModels.map((fm) => ({
        title: fm.meta.title, description: fm.meta.description,
        files: fm.files.map((f) => ({ id: f.id, name: f.name, sizeHuman: f.sizeHuman })),
      })),
    },
  };
}

/** A file of the link's dataset (any other id: 404). */
export async function file(ctx: ModuleContext, token: string, fileId: number) {
  const link = await validLink(ctx, token);
  const found = await ctx.services.hubfile.getFile(fileId);
  if (!found || found.datasetId !== link.dataset_id) throw notFound('No such file in this dataset.');
  const text = await ctx.services.hubfile.readText(found);
  if (text === undefined) throw notFound('The file is missing from storage.');
  return { name: found.name, text };
}

/**
 * A model of the link's dataset in another format (the model tools' exports, as on the DOI page),
 * as text. The formats carry the model only: no person, as the file itself.
 */
export async function exported(ctx: ModuleContext, token: string, fileId: number, target: ExportTarget, requester: string) {
  const link = await validLink(ctx, token);
  const found = await ctx.services.hubfile.getFile(fileId);
  if (!found || found.datasetId !== link.dataset_id) throw notFound('No such file in this dataset.');
  return ctx.services.modeltool.exportText(fileId, target, { requester });
}

/** The files of the link's dataset for its zip, opened as the zip reaches them. */
export async function zip(ctx: ModuleContext, token: string) {
  const link = await validLink(ctx, token);
  const owner = await ctx.services.dataset.getOwnerRef(link.dataset_id);
  // The link stands for the owner's own view, so an unpublished dataset can be reviewed too.
  return ctx.services.dataset.zipContents(link.dataset_id, owner?.userId ?? null);
}

/** A model of the link's dataset as its page shows it, without DOI, authors or uploader (issue 37, item 10). */
export async function model(ctx: ModuleContext, token: string, fileId: number, diagramQuery: unknown): Promise<{ datasetTitle: string; model: AnonymousModel }> {
  const link = await validLink(ctx, token);
  const [owner, [summary]] = await Promise.all([ctx.services.dataset.getOwnerRef(link.dataset_id), ctx.services.dataset.summariesOf([link.dataset_id])]);
  if (!owner || !summary) throw notFound('This review link does not exist, has expired or was revoked.');
  return { datasetTitle: summary.title, model: await anonymousModel(ctx, link.dataset_id, owner.userId, fileId, diagramQuery) };
}

/** The owner whose view the link stands for, when `fileId` is a file of the link's dataset; else 404. */
export async function ownerOfFile(ctx: ModuleContext, token: string, fileId: number): Promise<number> {
  const link = await validLink(ctx, token);
  const [found, owner] = await Promise.all([ctx.services.hubfile.getFile(fileId), ctx.services.dataset.getOwnerRef(link.dataset_id)]);
  if (!found || found.datasetId !== link.dataset_id || !owner) throw notFound('No such file in this dataset.');
  return owner.userId;
}

export function createReviewService(ctx: ModuleContext) {
  return bindOperations(ctx, { create, overview, revoke, anonymousView, file, exported, zip, model, ownerOfFile });
}

export type ReviewService = ReturnType<typeof createReviewService>;
