// A stored model for the model page's tests: a dataset row (a fixture: the dataset module is not
// under test), its feature model and file through their services, the file where hubfile says.
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestServer } from '../../../test/support/server.ts';
import { insertDatasetRow, userIdByEmail } from '../../../test/support/fixtures.ts';
import { nowIso } from '../../core/db/database.ts';

/** Turbo is dead (line 10 with line 11), Engine is core; the name with markup must come out escaped. */
export const DEAD_MODEL = `namespace Cars

features
    Car {abstract}
        mandatory
            Engine
        optional
            Turbo
            "Diesel <V6>"

constraints
    "Diesel <V6>" => !Turbo
    "Diesel <V6>"
`;

let fixtures = 0;

/** A dataset (synchronized unless doi is null) with one feature model and its file on disk. */
export async function storeModel(server: TestServer, options: { owner?: string; doi?: string | null; content?: string; name?: string } = {}) {
  const { db, ctx } = server.hub;
  const content = options.content ?? DEAD_MODEL;
  const name = options.name ?? 'cars.uvl';
  const userId = await userIdByEmail(db, options.owner ?? 'user1@example.com');
  fixtures += 1;
  const doi = options.doi === undefined ? `10.9999/model.${fixtures}` : options.doi;
  const datasetId = await insertDatasetRow(db, userId, { title: `Model fixture ${fixtures}`, doi, createdAt: nowIso() });
  const fmId = await ctx.services.featuremodel.createFeatureModel(db, datasetId, {
    uvl_filename: name, title: 'Cars with a dead turbo', description: '', publication_type: 'none',
    publication_doi: null, tags: null, uvl_version: null, authors: [],
  });
  const fileId = await ctx.services.hubfile.createFile(db, fmId, {
    name, checksum: createHash('md5').update(content).digest('hex'), size: Buffer.byteLength(content),
  });
  const folder = ctx.services.hubfile.datasetFolder(userId, datasetId);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, name), content);
  return { datasetId, fileId, doi, path: join(folder, name) };
}

