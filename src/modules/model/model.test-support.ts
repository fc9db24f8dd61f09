// A stored model for the model page's tests (test/support's storeModelFile) with a planted dead feature.
import type { TestServer } from '../../../test/support/server.ts';
import { storeModelFile } from '../../../test/support/fixtures.ts';

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

/** A dataset (synchronized unless doi is null) with one feature model and its file in the store. */
export function storeModel(server: TestServer, options: { owner?: string; doi?: string | null; content?: string; name?: string } = {}) {
  return storeModelFile(server, { ...options, label: 'Model', content: options.content ?? DEAD_MODEL, name: options.name ?? 'cars.uvl', modelTitle: 'Cars with a dead turbo' });
}
