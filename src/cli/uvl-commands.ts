// `hub uvl check`, `hub uvl convert` and `hub uvl analyze`: the UVL toolkit (packages/uvl) and
// the analysis engine (packages/analysis) on files. Imports are resolved on disk, relative to
// the importing file.

import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import {
  checkParsed,
  formatDiagnostic,
  printUvl,
  toCnf,
  toGlencoe,
  toSplot,
  readFeatureIde,
  readGlencoe,
  decodeModelBytes,
  readSxfm,
  toFeatureIde,
  UvlExportError,
  type UvlModel,
} from '../../packages/uvl/src/index.ts';
import { analyzeModel, type AnalysisResult } from '../../packages/analysis/src/index.ts';
import { describeFsError, loadAndParse } from './uvl-files.ts';
import { registerCompileCommands } from './uvl-compile-commands.ts';
import { registerConfigureCommands } from './uvl-configure-commands.ts';
import { registerCountCommands } from './uvl-count-commands.ts';

/** The output formats: the text, and for FeatureIDE what it could not carry (the others say it inside the text). */
const FORMATS: Record<string, (model: UvlModel) => { text: string; losses?: string[] }> = {
  glencoe: (m) => ({ text: toGlencoe(m) }),
  splot: (m) => ({ text: toSplot(m) }),
  cnf: (m) => ({ text: toCnf(m) }),
  uvl: (m) => ({ text: printUvl(m) }),
  featureide: (m) => {
    const { xml, losses } = toFeatureIde(m);
    return { text: xml, losses };
  },
};

const READERS = { featureide: readFeatureIde, sxfm: readSxfm, glencoe: readGlencoe } as const;

function refuse(message: string): void {
  process.stderr.write(`${message}\n`);
  process.exitCode = 1;
}

/** The loss report of a conversion, on standard error: what was not carried over, or that nothing was. */
function reportLosses(file: string, format: string, losses: string[]): void {
  if (losses.length === 0) process.stderr.write(`${file}: converted to ${format}, nothing lost\n`);
  else process.stderr.write(`${file}: converted to ${format}, ${losses.length} loss${losses.length > 1 ? 'es' : ''}:\n${losses.map((l) => `  - ${l}`).join('\n')}\n`);
}

/** A UVL file to convert, or undefined after reporting why not. */
function readUvlForConvert(file: string): UvlModel | undefined {
  const loaded = loadAndParse(file);
  if (!loaded.ok) return void refuse(`${file}: ${loaded.error}`);
  const errors = loaded.result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) return void refuse(`${file}: not converted, the model has syntax errors:\n${errors.map((d) => `  ${formatDiagnostic(d)}`).join('\n')}`);
  return loaded.result.model;
}

/** A FeatureIDE, SXFM or Glencoe file as a UVL model (its loss report on standard error), or undefined after reporting why not. */
function readOtherFormat(file: string, format: keyof typeof READERS): UvlModel | undefined {
  let bytes: Buffer;
  try {
    if (statSync(file).isDirectory()) return void refuse(`${file}: Line 1:0 - cannot read ${file}: it is a directory`);
    bytes = readFileSync(file);
  } catch (error) {
    return void refuse(`${file}: Line 1:0 - cannot read ${file}: ${describeFsError(error)}`);
  }
  const text = decodeModelBytes(bytes);
  if (text === undefined) return void refuse(`${file}: Line 1:0 - cannot read ${file}: it is not text (binary, or an encoding other than UTF-8)`);
  const result = READERS[format](text);
  if (result.errors.length > 0 || !result.model) return void refuse(`${file}: not converted, it is not a valid ${format} model:\n${result.errors.map((e) => `  ${e}`).join('\n')}`);
  reportLosses(file, 'UVL', result.losses);
  return result.model;
}

/** Standard output, or the file written beside its target and renamed (never half-written). */
function writeOutput(content: string, output: string | undefined): void {
  if (!output) {
    process.stdout.write(content);
    return;
  }
  const target = resolve(output);
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  try {
    if (existsSync(target) && statSync(target).isDirectory()) throw Object.assign(new Error('it is a directory'), { code: 'EISDIR' });
    writeFileSync(temporary, content);
    renameSync(temporary, target);
  } catch (error) {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing was written there (its folder does not exist).
    }
    refuse(`hub uvl convert: cannot write ${output}: ${describeFsError(error)}`);
  }
}

export function registerUvlCommands(program: Command): void {
  const uvl = program.command('uvl').description('Check, convert and analyse UVL feature models');

  uvl
    .command('check')
    .description('Check UVL files for syntax errors (exit 0 when all are valid, 1 otherwise)')
    .argument('<files...>', 'UVL files')
    .option('--json', 'one JSON line per file: {"file", "valid", "errors", "warnings"}')
    .action((files: string[], options: CheckCommandOptions) => runCheckCommand(files, options));

  uvl
    .command('convert')
    .description('Convert a model: UVL to Glencoe JSON, SPLOT SXFM, DIMACS CNF, canonical UVL or FeatureIDE XML; FeatureIDE, SXFM or Glencoe to UVL (--from)')
    .argument('<file>', 'UVL file, or with --from a FeatureIDE, SXFM or Glencoe file')
    .option('--to <format>', 'glencoe | splot | cnf | uvl | featureide (default uvl)')
    .option('--from <format>', 'featureide | sxfm | glencoe: read FILE in that format (default: UVL); the loss report goes to standard error')
    .option('-o, --output <file>', 'write to this file instead of standard output')
    .action((file: string, options: ConvertCommandOptions) => runConvertCommand(file, options));

  uvl
    .command('analyze')
    .description('Analyse UVL files: configurations, core, dead and false-optional features with explanations, metrics (exit 0 when every file was analysed, 1 when any is invalid)')
    .argument('<files...>', 'UVL files')
    .option('--json', 'one JSON line per file: {"file", ...the analysis result}')
    .option('--timeout <seconds>', 'time budget per file in seconds', '60')
    .action((files: string[], options: AnalyzeCommandOptions) => runAnalyzeCommand(files, options));

  registerCompileCommands(uvl);
  registerConfigureCommands(uvl);
  registerCountCommands(uvl);
}

type CheckCommandOptions = { json?: boolean };
type ConvertCommandOptions = { to?: string; from?: string; output?: string };
type AnalyzeCommandOptions = { json?: boolean; timeout: string };

/** `hub uvl check`: each file's verdict, its errors and warnings; the exit code says whether all are valid. */
export function runCheckCommand(files: string[], options: CheckCommandOptions): void {
  let allValid = true;
  for (const file of files) {
    const loaded = loadAndParse(file);
    // The library's check: syntax errors, and warnings for a valid but suspicious model.
    const { errors, warnings } = loaded.ok ? checkParsed(loaded.result) : { errors: [loaded.error], warnings: [] };
    const valid = errors.length === 0;
    if (!valid) allValid = false;
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ file, valid, errors, warnings })}\n`);
    } else {
      const lines = [`${file}: ${valid ? 'valid' : `invalid (${errors.length} error${errors.length > 1 ? 's' : ''})`}${warnings.length ? `, ${warnings.length} warning${warnings.length > 1 ? 's' : ''}` : ''}`];
      for (const e of errors) lines.push(`  error   ${e}`);
      for (const w of warnings) lines.push(`  warning ${w}`);
      process.stdout.write(`${lines.join('\n')}\n`);
    }
  }
  process.exitCode = allValid ? 0 : 1;
}

/** `hub uvl convert`: one model from UVL (or --from another format) to the --to format, on standard output or --output. */
export function runConvertCommand(file: string, options: ConvertCommandOptions): void {
  const to = options.to ?? 'uvl';
  const convert = Object.hasOwn(FORMATS, to) ? FORMATS[to] : undefined;
  if (!convert) return refuse(`hub uvl convert: unknown format '${to}' (use glencoe, splot, cnf, uvl or featureide)`);
  if (options.from !== undefined && !Object.hasOwn(READERS, options.from)) return refuse(`hub uvl convert: unknown input format '${options.from}' (use featureide, sxfm or glencoe)`);
  const model = options.from ? readOtherFormat(file, options.from as keyof typeof READERS) : readUvlForConvert(file);
  if (!model) return;
  let output: { text: string; losses?: string[] };
  try {
    output = convert(model);
  } catch (error) {
    if (error instanceof UvlExportError) return refuse(`${file}: not converted: ${error.message}`);
    throw error;
  }
  if (output.losses) reportLosses(file, 'FeatureIDE', output.losses);
  writeOutput(output.text.endsWith('\n') ? output.text : `${output.text}\n`, options.output);
}

/** `hub uvl analyze`: each file analysed within the time budget; the exit code says whether every file was. */
export function runAnalyzeCommand(files: string[], options: AnalyzeCommandOptions): void {
  const seconds = /^\s*\d+(\.\d*)?\s*$|^\s*\.\d+\s*$/.test(options.timeout) ? Number(options.timeout) : Number.NaN;
  if (!(seconds > 0) || !Number.isFinite(seconds)) {
    process.stderr.write(`hub uvl analyze: --timeout must be a positive number of seconds, not '${options.timeout}'\n`);
    process.exitCode = 1;
    return;
  }
  let allAnalysed = true;
  for (const file of files) {
    if (!analyzeFile(file, seconds, options.json)) allAnalysed = false;
  }
  process.exitCode = allAnalysed ? 0 : 1;
}

/** One file of `hub uvl analyze`, its report written; false when it is invalid or the analysis failed. */
function analyzeFile(file: string, seconds: number, json: boolean | undefined): boolean {
  const parseStart = performance.now();
  const loaded = loadAndParse(file);
  const parseMs = Math.round(performance.now() - parseStart);
  const errors = loaded.ok ? loaded.result.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic) : [loaded.error];
  if (!loaded.ok || errors.length > 0) {
    if (json) process.stdout.write(`${JSON.stringify({ file, valid: false, errors })}\n`);
    else process.stdout.write(`${[`${file}: invalid (${errors.length} error${errors.length > 1 ? 's' : ''}), not analysed`, ...errors.map((e) => `  error   ${e}`)].join('\n')}\n`);
    return false;
  }
  let result: AnalysisResult;
  try {
    result = analyzeModel(loaded.result.model, { timeoutMs: seconds * 1000, text: loaded.text });
  } catch (error) {
    // The engine failing on one model must not cost the report of the others.
    const message = `the analysis failed: ${(error as Error).message}`;
    if (json) process.stdout.write(`${JSON.stringify({ file, valid: true, error: message })}\n`);
    else process.stdout.write(`${file}: ${message}\n`);
    return false;
  }
  result.timings_ms = { parse: parseMs, ...result.timings_ms };
  if (json) process.stdout.write(`${JSON.stringify({ file, ...result })}\n`);
  else process.stdout.write(`${summary(file, result)}\n`);
  return true;
}

/** A feature list for people: sorted names, the first 20 and how many more. */
function names(list: string[]): string {
  return list.length <= 20 ? list.join(', ') : `${list.slice(0, 20).join(', ')}, … (${list.length - 20} more)`;
}

/** The readable report of `hub uvl analyze` without --json. */
function summary(file: string, r: AnalysisResult): string {
  const m = r.metrics;
  const verdict = r.satisfiable === null ? 'satisfiability unknown (timeout)' : r.satisfiable ? 'satisfiable' : 'VOID (no configuration)';
  const e = r.configurations_estimate;
  const estimate = e ? `about 10^${e.log10} configurations (an estimate, exact count out of time: within a factor ${1 + e.epsilon} with probability at least ${1 - e.delta})` : undefined;
  const count =
    r.configurations_status === 'exact' ? `${r.configurations} configuration${r.configurations === '1' ? '' : 's'}` : estimate ?? (r.configurations_status === 'timeout' ? 'configurations not counted (timeout)' : 'configurations not counted');
  const lines = [`${file}: ${verdict}, ${count}${r.boolean_only ? '' : ` of the Boolean part (${r.ignored_constraints} constraint${r.ignored_constraints === 1 ? '' : 's'} left out)`}`];
  lines.push(
    `  metrics: ${m.features} features (${m.leaf_features} leaves, ${m.abstract_features} abstract, ${m.typed_features} typed), depth ${m.depth}, ` +
      `groups ${m.groups.or} or / ${m.groups.alternative} alternative / ${m.groups.cardinality} cardinality, ` +
      `${m.constraints} constraints (${m.simple_constraints} simple, ${m.complex_constraints} complex) over ${m.features_in_constraints} features, ` +
      `${m.attributes} attributes, language level ${m.language_level}`,
  );
  const list = (label: string, values: string[] | null, explanations?: Record<string, string[]>) => {
    if (values === null) {
      lines.push(`  ${label}: not computed (timeout)`);
      return;
    }
    lines.push(`  ${label} (${values.length})${values.length ? `: ${names(values)}` : ''}`);
    if (!explanations) return;
    for (const name of values) {
      const why = explanations[name];
      if (why && why.length > 0) lines.push(`    ${name} because of:`, ...why.map((w) => `      ${w}`));
      else if (r.reasons?.[name] === 'tree') lines.push(`    ${name}: caused by the feature tree alone`);
    }
  };
  if (r.satisfiable === false) {
    if (r.explanations === null) lines.push('  why void: not computed (timeout)');
    else if (r.explanations.void.length > 0) lines.push('  void because of:', ...r.explanations.void.map((w) => `    ${w}`));
    else if (r.reasons?.void === 'tree') lines.push('  void because of the feature tree alone');
  } else {
    list('core', r.core);
    list('dead', r.dead, r.explanations?.dead);
    list('false-optional', r.false_optional, r.explanations?.false_optional);
    if (r.atomic_sets === null) lines.push('  atomic sets: not computed (timeout)');
    else lines.push(`  atomic sets (${r.atomic_sets.length})${r.atomic_sets.length ? `: ${r.atomic_sets.slice(0, 10).map((s) => `{${names(s)}}`).join(' ')}${r.atomic_sets.length > 10 ? ' …' : ''}` : ''}`);
  }
  if (r.timeouts && r.timeouts.length > 0) lines.push(`  timed out: ${r.timeouts.join(', ')}`);
  const timings = Object.entries(r.timings_ms).map(([k, v]) => `${k} ${v} ms`);
  if (timings.length > 0) lines.push(`  time: ${timings.join(', ')}`);
  return lines.join('\n');
}
