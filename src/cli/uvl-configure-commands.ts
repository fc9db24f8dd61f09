// `hub uvl configure` and the t-wise half of `hub uvl sample --twise T` (extensions section 6):
// the configurator and t-wise sampling of packages/analysis on a file. `sample` is registered
// with the uniform half (uvl-compile-commands.ts), which hands `--twise` to runTwiseCommand.

import type { Command } from 'commander';
import { formatDiagnostic, parseNameList, unquoteName, type UvlModel } from '../../packages/uvl/src/index.ts';
import { writeSync } from 'node:fs';
import {
  compiledCounter, Configurator, csvHeader, csvRow, Deadline, jsonRow, packSample, readSampleHeader, sampleCsv, twiseSample, UnknownFeatureError,
  type BitRows, type ConfigureResult, type TwiseResult, type WhyResult,
} from '../../packages/analysis/src/index.ts';
import { loadAndParse } from './uvl-files.ts';

export const DEFAULT_TWISE_SECONDS = 600;
/** Budget of the compiled form that counts what remains; past it the answer says the count timed out. */
const COMPILE_SECONDS = 60;

export function registerConfigureCommands(uvl: Command): void {
  uvl
    .command('configure')
    .description('Propagate a partial configuration: every feature\'s state, the remaining count, a minimal conflict, why a feature is forced or excluded (exit 1 for an invalid model or an unknown feature)')
    .argument('<file>', 'UVL file')
    .option('--select <features>', 'features to select, comma-separated (a name with a comma in double quotes, as in UVL)', '')
    .option('--deselect <features>', 'features to deselect, comma-separated (quoted as in UVL if need be)', '')
    .option('--why <feature>', 'explain the state of this feature under the decisions')
    .option('--json', 'one JSON object')
    .action((file: string, options: ConfigureCommandOptions) => runConfigureCommand(file, options));

}

export interface ConfigureCommandOptions {
  select?: string;
  deselect?: string;
  why?: string;
  json?: boolean;
}

export interface TwiseCommandOptions {
  t: string;
  seed?: string;
  timeout?: string;
  json?: boolean;
  /** Progress lines on standard error (every 10 s) while the sample is built. */
  progress?: boolean;
}

/** The parsed model, or undefined after reporting why not (exit code 1). */
function loadModel(command: string, file: string, json: boolean | undefined): { model: UvlModel; text: string } | undefined {
  const loaded = loadAndParse(file);
  const errors = loaded.ok ? loaded.result.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic) : [loaded.error];
  if (loaded.ok && errors.length === 0 && loaded.result.model.root) return { model: loaded.result.model, text: loaded.text };
  if (errors.length === 0) errors.push('the model has no features');
  if (json) process.stdout.write(`${JSON.stringify({ file, valid: false, errors })}\n`);
  else process.stderr.write(`hub uvl ${command}: ${file} is invalid\n${errors.map((e) => `  error   ${e}`).join('\n')}\n`);
  process.exitCode = 1;
  return undefined;
}

function badValue(command: string, message: string, json: boolean | undefined): void {
  if (json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
  else process.stderr.write(`hub uvl ${command}: ${message}\n`);
  process.exitCode = 1;
}

export function runConfigureCommand(file: string, options: ConfigureCommandOptions): void {
  const loaded = loadModel('configure', file, options.json);
  if (!loaded) return;
  const decisions = { selected: parseNameList(options.select), deselected: parseNameList(options.deselect) };
  const whyName = options.why === undefined ? undefined : unquoteName(options.why);
  try {
    const configurator = new Configurator(loaded.model, { text: loaded.text, counter: compiledCounter(loaded.model, loaded.text, Deadline.after(COMPILE_SECONDS * 1000)) });
    const result = configurator.configure(decisions);
    const why = whyName !== undefined && result.consistent ? configurator.why(decisions, whyName) : undefined;
    if (whyName !== undefined && !result.consistent) configurator.decisionLiterals({ selected: [whyName], deselected: [] }); // an unknown name is still a bad value
    if (options.json) process.stdout.write(`${JSON.stringify(why ?? result)}\n`);
    else process.stdout.write(`${why ? whyText(why) : configureText(result)}\n`);
    process.exitCode = 0;
  } catch (error) {
    if (!(error instanceof UnknownFeatureError)) throw error;
    badValue('configure', `unknown feature '${error.feature}'`, options.json);
  }
}

function configureText(r: ConfigureResult): string {
  const scope = r.boolean_only ? [] : [`(over the Boolean part: ${r.ignored_constraints} constraint(s) left out)`];
  if (!r.consistent) {
    return [
      'inconsistent: no configuration extends these decisions',
      `conflicting decisions: ${r.conflict.decisions.join(', ')}`,
      `constraints: ${r.conflict.constraints.length > 0 ? r.conflict.constraints.join('; ') : 'the tree alone'}`,
      ...scope,
    ].join('\n');
  }
  const byState = new Map<string, string[]>();
  for (const [name, state] of Object.entries(r.features)) byState.set(state, [...(byState.get(state) ?? []), name]);
  const lines = [`consistent; remaining configurations: ${r.remaining ?? `unknown (${r.remaining_status})`}`, ...scope];
  for (const state of ['selected', 'deselected', 'forced', 'excluded', 'open']) {
    const names = (byState.get(state) ?? []).sort();
    lines.push(`${state} (${names.length}): ${names.join(', ')}`);
  }
  return lines.join('\n');
}

function whyText(w: WhyResult): string {
  if (w.why === null) return `${w.feature} is open: no reason to give`;
  return `${w.feature} is ${w.state} because: ${w.why.join('; ')}`;
}

export function runTwiseCommand(file: string, options: TwiseCommandOptions): void {
  const t = Number(options.t);
  if (t !== 1 && t !== 2 && t !== 3) return badValue('sample', `--twise must be 1, 2 or 3, not '${options.t}'`, options.json);
  const seedText = options.seed ?? '1';
  const seed = /^\d+$/.test(seedText.trim()) ? Number(seedText) : Number.NaN;
  if (!Number.isSafeInteger(seed)) return badValue('sample', `--seed must be a non-negative integer, not '${seedText}'`, options.json);
  const timeoutText = options.timeout ?? String(DEFAULT_TWISE_SECONDS);
  const seconds = /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(timeoutText) ? Number(timeoutText) : Number.NaN;
  if (!(seconds > 0) || !Number.isFinite(seconds)) return badValue('sample', `--timeout must be a positive number of seconds, not '${timeoutText}'`, options.json);
  const loaded = loadModel('sample', file, options.json);
  if (!loaded) return;
  const started = performance.now();
  const onProgress = options.progress
    ? (p: { covered: number; total: number; configurations: number }) => {
        const rss = Math.round(process.memoryUsage().rss / 2 ** 20);
        process.stderr.write(`${Math.round((performance.now() - started) / 1000)} s: ${p.configurations} configurations, ${p.covered} interactions covered, ${p.total - p.covered} open, ${rss} MB\n`);
      }
    : undefined;
  // Large pairwise samples come as bit rows and are written one row at a time (automotive2_4: 40 000 rows of 18 616 cells).
  const result = twiseSample(loaded.model, { t, seed, text: loaded.text, deadline: Deadline.after(seconds * 1000), packed: true, onProgress, progressMs: 10_000 });
  if (result.packed) writePacked(result, result.packed, options.json === true);
  else if (options.json) {
    const { features: _features, ...shape } = result;
    process.stdout.write(`${JSON.stringify(shape)}\n`);
  } else {
    process.stdout.write(sampleCsv(result));
    process.stderr.write(`${twiseSummary(result)}\n`);
  }
  process.exitCode = 0;
}

/** The sample's JSON (without `features`, as above) or CSV, written to standard output row by row. */
function writePacked(result: TwiseResult, rows: BitRows, json: boolean): void {
  // `configurations` (empty here) keeps its place among the members; packSample puts the rows there.
  const { features: _features, packed: _packed, ...shape } = result;
  const packed = packSample(shape, result.features, rows);
  const { header, rowsAt } = readSampleHeader(packed)!;
  const out = (text: string) => writeSync(1, text);
  const quoted = json ? result.features.map((name) => JSON.stringify(name)) : [];
  out(json ? header.prefix : csvHeader(result.features));
  for (let r = 0; r < rows.count; r++) {
    const at = rowsAt + r * rows.rowBytes;
    out(json ? `${r > 0 ? ',' : ''}${jsonRow(quoted, packed, at)}` : csvRow(rows.width, packed, at));
  }
  if (json) out(`${header.suffix}\n`);
  else process.stderr.write(`${twiseSummary(result)}\n`);
}

function twiseSummary(r: TwiseResult): string {
  const lines = [
    `${r.t}-wise sample (seed ${r.seed}): ${r.size} configurations, ${r.covered} interactions covered of ${r.interactions ?? 'an unknown number of'} valid ones${r.complete ? '' : ' (incomplete)'}`,
    `lower bound: ${r.lower_bound} (${r.lower_bound_method})`,
  ];
  if (r.note) lines.push(r.note);
  if (!r.boolean_only) lines.push(`over the Boolean part: ${r.ignored_constraints} constraint(s) left out`);
  return lines.join('\n');
}
