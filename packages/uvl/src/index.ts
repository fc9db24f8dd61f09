// Public API of the UVL toolkit. A library: no file system, no network, nothing from the app.
export type * from './ast.ts';
export { type Diagnostic, type DiagnosticCode, type Severity, formatDiagnostic } from './diagnostics.ts';
export { parseUvl, MAX_DEPTH, MAX_IMPORT_NESTING, IMPORT_READ_ROUNDS, type ImportLoader, type ImportRequest, type LoadedModel, type ParseOptions } from './parser.ts';
export { checkDiagnostics, checkParsed, checkUvl, checkUvlBytes, decodeUtf8Text, limitDiagnostics, NOT_TEXT_ERROR, type CheckResult } from './check.ts';
export { modelWarnings, EMPTY_MODEL_WARNING } from './warnings.ts';
export { countModel, flattenModel, type ModelCounts, type FlatModel, type FlatFeature, type FlatConstraint, type Relation } from './semantics.ts';
export { printUvl, printExpression } from './convert/uvl.ts';
export { toGlencoe } from './convert/glencoe.ts';
export { toSplot, distributeCnf, simplify as simplifyClause } from './convert/splot.ts';
export { toCnf, buildCnf, type CnfResult } from './convert/cnf.ts';
export { constraintEncoder, type ConstraintEncoder } from './convert/tseitin.ts';
export { UvlExportError, prepareExport, type ExportModel, type ExportConstraint, type BoolExpr, type PrepareOptions, type LeftOutConstraint } from './convert/common.ts';
export { modelConstraints } from './semantics.ts';
export { createMapLoader, createReadAheadLoader } from './loader.ts';
export { readFeatureIde, featureIdeFeatureCount, readSxfm, readGlencoe, toFeatureIde, readModelFile, detectFormat, decodeModelBytes, type FeatureIdeResult, type ModelFormat, type ModelFileResult, type FormatReadResult } from './formats/index.ts';
export { constraintSource } from './source-text.ts';
export { parseNameList, unquoteName, formatNameList } from './name-list.ts';
export { featureEstimate } from './feature-lines.ts';
// The editor's tokenizer and rename (src/modules/editor) follow the scanner's names and keywords.
export { KEYWORD_TEXTS, isPlainName } from './tokens.ts';
