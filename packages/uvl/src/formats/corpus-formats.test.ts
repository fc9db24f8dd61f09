// Generated corpus: every valid UVL corpus model written to SPLOT SXFM and Glencoe JSON by the
// hub's writers and to FeatureIDE XML by toFeatureIde, then read back by the readers of this
// folder. Every written file converts (the writers' files that are not valid in their format
// are named below and must fail with a clear error); for models of at most COUNT_LIMIT features
// the configurations of each file, counted from a CNF written straight from the file, equal
// those of the converted UVL, and UVL -> FeatureIDE -> UVL keeps the original's configurations.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { UvlModel } from '../ast.ts';
import { corpusSkipReason, diskLoader, findCorpus } from '../corpus.support.ts';
import { countModel, flattenModel, parseUvl, readFeatureIde, readGlencoe, readSxfm, toFeatureIde, toGlencoe, toSplot, UvlExportError, type FormatReadResult } from '../index.ts';
import { countDirect, countModelConfigurations } from './count.support.ts';
import { featureIdeCnf, glencoeCnf, sxfmCnf, type DirectCnf } from './direct-cnf.support.ts';

/** Models with more features are converted and read back, but not counted (time: two cores shared). */
const COUNT_LIMIT = Number(process.env.FORMATS_COUNT_LIMIT ?? 400);

const corpus = findCorpus();

interface Format {
  name: string;
  write(model: UvlModel): { text: string; losses: string[] };
  read(text: string): FormatReadResult;
  direct(text: string): DirectCnf;
}

const FORMATS: Format[] = [
  { name: 'sxfm', write: (m) => ({ text: toSplot(m), losses: [] }), read: readSxfm, direct: sxfmCnf },
  { name: 'glencoe', write: (m) => ({ text: toGlencoe(m), losses: [] }), read: readGlencoe, direct: glencoeCnf },
  { name: 'featureide', write: (m) => { const r = toFeatureIde(m); return { text: r.xml, losses: r.losses }; }, read: readFeatureIde, direct: featureIdeCnf },
];

/** A loss line without its names and numbers: its kind. */
const lossKind = (loss: string): string => loss.split(':')[0]!.replace(/`[^`]*`/g, '…').replace(/\[[^\]]*\]/g, '[…]');

function hasRepeatedNames(model: UvlModel): boolean {
  const names = flattenModel(model).features.map((f) => f.name);
  return new Set(names).size !== names.length;
}

describe('generated corpus: UVL -> SXFM / Glencoe / FeatureIDE -> UVL', { skip: corpus ? false : corpusSkipReason }, () => {
  const models: { path: string; model: UvlModel; features: number }[] = [];
  for (const entry of corpus?.files ?? []) {
    if (!entry.valid) continue;
    const { model } = parseUvl(corpus!.read(entry.path), { fileName: `${corpus!.dir}/${entry.path}`, loader: diskLoader });
    if (model.root) models.push({ path: entry.path, model, features: countModel(model, { expandImports: true }).features });
  }

  for (const format of FORMATS) {
    test(`${format.name}: every written file converts; configurations equal up to ${COUNT_LIMIT} features`, (t) => {
      const summary = { written: 0, writtenWithLosses: 0, converted: 0, withLosses: 0, counted: 0, refusedByWriter: 0, invalidWrites: [] as string[] };
      const writerLosses = new Map<string, number>();
      const readerLosses = new Map<string, number>();
      const uncounted: string[] = [];
      for (const { path, model, features } of models) {
        let written: { text: string; losses: string[] };
        try {
          written = format.write(model);
        } catch (error) {
          // A constraint naming no feature of the model: every writer refuses it (tested elsewhere).
          if (!(error instanceof UvlExportError)) throw error;
          summary.refusedByWriter++;
          continue;
        }
        summary.written++;
        if (written.losses.length > 0) summary.writtenWithLosses++;
        for (const l of written.losses) writerLosses.set(lossKind(l), (writerLosses.get(lossKind(l)) ?? 0) + 1);
        const read = format.read(written.text);
        if (format.name !== 'featureide' && hasRepeatedNames(model)) {
          // The SXFM and Glencoe writers write a repeated feature name as a repeated id, which
          // neither format allows: the reader must say so.
          assert.match(read.errors[0] ?? '', /twice/, `${path}: a repeated id must be an error`);
          summary.invalidWrites.push(path);
          continue;
        }
        assert.deepEqual(read.errors, [], path);
        summary.converted++;
        if (read.losses.length > 0) summary.withLosses++;
        for (const l of read.losses) readerLosses.set(lossKind(l), (readerLosses.get(lossKind(l)) ?? 0) + 1);
        if (features > COUNT_LIMIT) {
          uncounted.push(`${path} (${features})`);
          continue;
        }
        const converted = countModelConfigurations(read.model!);
        assert.equal(countDirect(format.direct(written.text)), converted, `${path}: the ${format.name} file and its UVL`);
        if (format.name === 'featureide') assert.equal(converted, countModelConfigurations(model), `${path}: UVL -> FeatureIDE -> UVL`);
        summary.counted++;
      }
      assert.ok(summary.converted > 250, 'the corpus has a few hundred valid models');
      t.diagnostic(`${format.name}: ${JSON.stringify(summary)}`);
      t.diagnostic(`${format.name} writer losses by kind: ${JSON.stringify(Object.fromEntries(writerLosses))}`);
      t.diagnostic(`${format.name} reader losses by kind: ${JSON.stringify(Object.fromEntries(readerLosses))}`);
      t.diagnostic(`${format.name} not counted (more than ${COUNT_LIMIT} features): ${uncounted.length}`);
    });
  }
});
