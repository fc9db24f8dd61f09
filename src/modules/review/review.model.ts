// A model page through a review link (issue 37, item 10): the model's facts, its diagram and its
// source, without the dataset's DOI, authors or uploader. Read as the owner (the link stands for
// the owner's view, so an unpublished dataset's models show too) and answered as an
// AnonymousModel: the route never holds the stored file or the model page's data, which name the
// DOI and the dataset's address.
import type { ModuleContext } from '../../core/modules.ts';
import { notFound } from '../../core/http/errors.ts';
import { factLabel, parseDiagramQuery, type FactLabel } from '../model/index.ts';

/** What a reviewer sees of one model: no DOI, no person, no address outside the link. */
export interface AnonymousModel {
  fileId: number;
  title: string;
  fileName: string;
  sizeHuman: string;
  rootName: string | null;
  errors: string[];
  analysis: 'unavailable' | 'pending' | 'failed' | 'finished';
  label: FactLabel | null;
  /** The server-drawn diagram: its links stay on the review page (`?root=<name>#diagram`). */
  diagram: string | null;
  /** The first source lines, highlighted; the whole file is the link's download. */
  lines: string[];
  totalLines: number;
}

/**
 * The model of `fileId` in the link's dataset (`datasetId`, owned by `ownerId`); any other file
 * answers 404. `query` is the diagram's (root, depth, open, close), as on the model page.
 */
export async function anonymousModel(ctx: ModuleContext, datasetId: number, ownerId: number, fileId: number, query: unknown): Promise<AnonymousModel> {
  const stored = await ctx.services.hubfile.getFile(fileId);
  if (!stored || stored.datasetId !== datasetId) throw notFound('No such file in this dataset.');
  const model = ctx.services.model;
  const data = await model.page(fileId, ownerId);
  const asked = parseDiagramQuery(query);
  const analysis = data.analysis;
  const label = analysis.kind === 'finished' ? factLabel(analysis.result) : analysis.kind === 'pending' && analysis.partial ? factLabel(analysis.partial) : null;
  // Parsed and drawn in a worker of the scheduler, waited for (queued as the link's dataset).
  const view = await model.pageViewWaiting(data, asked, false, `review:${datasetId}`);
  const source = model.sourceWindow(view);
  return {
    fileId,
    title: data.modelTitle,
    fileName: data.file.name,
    sizeHuman: data.file.sizeHuman,
    rootName: view.rootName,
    errors: view.errors,
    analysis: analysis.kind,
    label,
    diagram: view.diagram,
    lines: source.inline,
    totalLines: source.total,
  };
}
