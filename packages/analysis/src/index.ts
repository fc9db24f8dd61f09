// Public API of the analysis engine. A library: no file system, no network, nothing from the app.
export type * from './types.ts';
export { analyzeModel, countConfigurations, modelBackbone, satEncoding } from './analyze.ts';
export { encodeModel, type EncodedModel } from './encode.ts';
export { computeMetrics } from './ops/metrics.ts';
export { SatSolver, type SolveStatus } from './sat/solver.ts';
export { countCnf } from './count/counter.ts';
export { cnfBackbone, type Backbone } from './ops/backbone.ts';
export { Deadline, DeadlineExceeded } from './deadline.ts';
export { classifyEdit, type ClassifyEditOptions, type EditClassification, type EditKind } from './ops/edit-class.ts';
export { compileModel, CompiledModel, type Assumptions, type Commonality, type CompileOptions, type Configuration, type NarrowTables } from './compile/compiled-model.ts';
export { Configurator, UnknownFeatureError, type ConfiguratorOptions, type ConfigureOptions } from './configure/configurator.ts';
export { compiledCounter, type ConfigurationCounter } from './configure/counter.ts';
export type { ConfigureResult, Decisions, FeatureState, WhyResult } from './configure/types.ts';
export { twiseSample, type TwiseOptions, type TwiseResult } from './sample/twise.ts';
export { ENGINE_VERSION } from './version.ts';
export { sampleCsv } from './sample/csv.ts';
export { BitRows, csvHeader, csvRow, jsonRow, packSample, readSampleHeader, rowsOfNames, unpackSampleJson, type SampleHeader } from './sample/compact.ts';
