// `hub uvl compile`, `hub uvl commonality` and `hub uvl sample --uniform`: the analysis engine's
// compiled form (packages/analysis/src/compile) on files. Section 6 of extensions.md is the
// contract: --json prints one JSON object, otherwise samples are CSV and the rest readable text;
// exit 1 for an invalid model or a bad value.

import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { formatDiagnostic, parseNameList } from '../../packages/uvl/src/index.ts';
import { compileModel, Deadline, formatProbability, probabilityOf, type CompiledModel, type NarrowTables } from '../../packages/analysis/src/index.ts';
import { describeFsError, loadAndParse } from './uvl-files.ts';
import { DEFAULT_TWISE_SECONDS, runTwiseCommand } from './uvl-configure-commands.ts';

/** Time budget of a compilation from the command line. */
const COMPILE_BUDGET_MS = 60_000;
const MAX_SAMPLES = 10_000;

/** A failure already reported on standard error: the command exits 1. */
class Reported extends Error {}

/** The command a failure is reported for, and whether it was asked for --json. */
interface Out {
  command: string;
  json?: boolean;
}

/**
 * Reports a failure: on standard error, or with --json as one JSON object on standard output,
 * as `configure` and `sample --twise` answer (`{"file", "valid": false, "errors"}` for a model
 * that cannot be read or is invalid, else `{"error"}`), so that a script reading the JSON
 * always gets its line.
 */
function fail(to: Out | string, message: string, line?: Record<string, unknown>): never {
  const { command, json } = typeof to === 'string' ? { command: to, json: false } : to;
  if (json) process.stdout.write(`${JSON.stringify(line ?? { error: message })}\n`);
  else process.stderr.write(`hub uvl ${command}: ${message}\n`);
  throw new Reported();
}

/** Runs a command's body; a reported failure sets exit code 1. */
async function run(body: () => void | Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    if (!(error instanceof Reported)) throw error;
    process.exitCode = 1;
  }
}

/**
 * Standard output written in blocks, waiting while the stream's buffer is full: a sample of
 * 10 000 configurations of a model of 18 000 features is hundreds of megabytes, which neither
 * one string nor the buffer of a pipe may hold.
 */
class BlockWriter {
  private parts: (string | Buffer)[] = [];
  private size = 0;

  async write(part: string | Buffer): Promise<void> {
    this.parts.push(part);
    this.size += part.length;
    if (this.size >= 1 << 20) await this.flush();
  }

  async flush(): Promise<void> {
    const block = Buffer.concat(this.parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
    this.parts = [];
    this.size = 0;
    if (!process.stdout.write(block)) await new Promise((resolve) => process.stdout.once('drain', resolve));
  }
}

/** The file parsed and compiled; an unreadable or invalid model, or a budget run out, is reported. */
function compileFile(to: Out, file: string, narrowTables: NarrowTables = 'wide'): CompiledModel {
  const loaded = loadAndParse(file);
  if (!loaded.ok) fail(to, `${file}: ${loaded.error}`, { file, valid: false, errors: [loaded.error] });
  const errors = loaded.result.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
  if (errors.length > 0) fail(to, `${file}: invalid model:\n${errors.map((e) => `  ${e}`).join('\n')}`, { file, valid: false, errors });
  if (!loaded.result.model.root) fail(to, `${file}: the model has no features`, { file, valid: false, errors: ['the model has no features'] });
  const compiled = compileModel(loaded.result.model, { text: loaded.text, deadline: Deadline.after(COMPILE_BUDGET_MS), narrowTables });
  if (!compiled) fail(to, `${file}: not compiled within ${COMPILE_BUDGET_MS / 1000} s`, { file, error: `not compiled within ${COMPILE_BUDGET_MS / 1000} s` });
  return compiled;
}

/** Writes a file beside its target under a temporary name, then renames it: never half-written. */
function writeAtomically(command: string, path: string, content: string): void {
  const target = resolve(path);
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, content);
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    fail(command, `cannot write ${path}: ${describeFsError(error)}`);
  }
}

/** A comma-separated list of feature names (packages/uvl name-list.ts), each checked against the model. */
function featureList(to: Out, compiled: CompiledModel, value: string | undefined): string[] {
  const names = parseNameList(value);
  for (const name of names) if (compiled.variableOf(name) === undefined) fail(to, `unknown feature '${name}'`);
  return names;
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A count for people: in full up to 30 digits, else its leading digits and its number of digits. */
function readableCount(count: bigint): string {
  const digits = String(count);
  return digits.length <= 30 ? digits : `${digits[0]}.${digits.slice(1, 6)}e${digits.length - 1} (${digits.length} digits)`;
}

/** A CSV field, quoted when it must be (RFC 4180). */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

interface SampleOptions {
  uniform?: string;
  seed: string;
  select?: string;
  deselect?: string;
  twise?: string;
  timeout?: string;
  json?: boolean;
  progress?: boolean;
}

export function registerCompileCommands(uvl: Command): void {
  uvl
    .command('compile')
    .description('Compile a UVL model into a d-DNNF in the d4 NNF format (over the features, numbered as `hub uvl convert --to cnf` numbers them)')
    .argument('<file>', 'UVL file')
    .option('-o, --output <file>', 'write the d-DNNF to this file instead of standard output')
    .option('--map <file>', 'write the feature numbering there, as `c <n> <name>` lines')
    .action((file: string, options: { output?: string; map?: string }) => run(() => compileCommand(file, options)));

  uvl
    .command('commonality')
    .description("Every feature's commonality: the configurations that contain it, and their share of all")
    .argument('<file>', 'UVL file')
    .option('--json', 'one JSON object: {"configurations", "features": {name: {"commonality", "probability"}}}')
    .action((file: string, options: { json?: boolean }) => run(() => commonalityCommand(file, options)));

  uvl
    .command('sample')
    .description('Draw configurations: --uniform N, each uniform among those that extend the decisions, or a t-wise sample with --twise T (CSV, or --json)')
    .argument('<file>', 'UVL file')
    .option('--uniform <n>', `number of uniform configurations, 1..${MAX_SAMPLES}`)
    .option('--seed <seed>', 'seed of the pseudo-random generator (a non-negative integer)', '1')
    .option('--select <features>', 'features selected, comma-separated')
    .option('--deselect <features>', 'features deselected, comma-separated')
    .option('--twise <t>', 'a t-wise sample instead: every valid interaction of t = 1, 2 or 3 feature literals covered')
    .option('--timeout <seconds>', `time budget of --twise in seconds; past it the partial sample is returned, marked incomplete (default ${DEFAULT_TWISE_SECONDS})`)
    .option('--progress', 'with --twise: a progress line on standard error every 10 s (configurations, interactions covered and open, memory)')
    .option('--json', 'one JSON object: {"kind", "seed", "n", "features", "configurations"}')
    .action((file: string, options: SampleOptions) => run(() => sampleCommand(file, options)));
}

function compileCommand(file: string, options: { output?: string; map?: string }): void {
  // The d4 file wants decision nodes only: no TABLE nodes to compile again.
  const compiled = compileFile({ command: 'compile' }, file, 'never');
  const nnf = compiled.toD4();
  if (options.map) writeAtomically('compile', options.map, compiled.variableMap());
  if (!options.output) {
    process.stdout.write(nnf);
    return;
  }
  writeAtomically('compile', options.output, nnf);
  const note = compiled.ignoredConstraints > 0 ? ` (Boolean part only: ${compiled.ignoredConstraints} constraint(s) left out)` : '';
  process.stdout.write(`${file}: ${compiled.form.nodes} nodes, ${readableCount(compiled.count())} configurations${note}, written to ${options.output}\n`);
}

function commonalityCommand(file: string, options: { json?: boolean }): void {
  const compiled = compileFile({ command: 'commonality', json: options.json }, file);
  const { configurations, counts } = compiled.commonality();
  const order = compiled.names.map((name, i) => ({ name, count: counts[i]! })).sort((a, b) => byName(a.name, b.name));
  if (options.json) {
    const features: Record<string, { commonality: string; probability: number }> = {};
    for (const { name, count } of order) features[name] = { commonality: String(count), probability: probabilityOf(count, configurations) };
    const result = { configurations: String(configurations), boolean_only: compiled.ignoredConstraints === 0, features };
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  const width = Math.max(...order.map((o) => o.name.length));
  const lines = [`${file}: ${readableCount(configurations)} configurations${compiled.ignoredConstraints > 0 ? ` (Boolean part only: ${compiled.ignoredConstraints} constraint(s) left out)` : ''}`];
  for (const { name, count } of order) lines.push(`  ${name.padEnd(width)}  ${formatProbability(count, configurations).padEnd(14)}  ${readableCount(count)}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function sampleCommand(file: string, options: SampleOptions): Promise<void> {
  const to: Out = { command: 'sample', json: options.json };
  if (options.twise !== undefined) {
    if (options.uniform !== undefined || options.select !== undefined || options.deselect !== undefined) fail(to, '--twise takes no --uniform, --select or --deselect');
    return runTwiseCommand(file, { t: options.twise, seed: options.seed, timeout: options.timeout, json: options.json, progress: options.progress });
  }
  if (options.timeout !== undefined) fail(to, '--timeout goes with --twise');
  if (options.uniform === undefined) fail(to, 'give the kind of sample: --uniform N or --twise T');
  const n = /^\s*\d+\s*$/.test(options.uniform) ? Number(options.uniform) : Number.NaN;
  if (!(n >= 1 && n <= MAX_SAMPLES)) fail(to, `--uniform must be a whole number from 1 to ${MAX_SAMPLES}, not '${options.uniform}'`);
  const seed = /^\s*\d+\s*$/.test(options.seed) ? Number(options.seed) : Number.NaN;
  if (!Number.isSafeInteger(seed)) fail(to, `--seed must be a non-negative integer, not '${options.seed}'`);
  const compiled = compileFile(to, file);
  const decisions = { selected: featureList(to, compiled, options.select), deselected: featureList(to, compiled, options.deselect) };
  // Nothing is held: each configuration is written as it is drawn.
  const features = [...compiled.names].sort(byName);
  const columns = features.map((name) => compiled.variableOf(name)! - 1);
  const out = new BlockWriter();
  let drawn = 0;
  if (options.json) {
    const head = JSON.stringify({ kind: 'uniform', seed, n, boolean_only: compiled.ignoredConstraints === 0, features });
    await out.write(`${head.slice(0, -1)},"configurations":[`);
    for (const c of compiled.uniformSamples(n, seed, decisions)) {
      const selected = columns.filter((k) => c[k] === 1).map((k) => compiled.names[k]!);
      await out.write((drawn++ > 0 ? ',' : '') + JSON.stringify(selected));
    }
    await out.write(']}\n');
  } else {
    await out.write(`${features.map(csvField).join(',')}\n`);
    // A row is "0," or "1," per column, the last comma a newline.
    const row = Buffer.alloc(2 * columns.length, ',');
    row[row.length - 1] = 0x0a;
    for (const c of compiled.uniformSamples(n, seed, decisions)) {
      for (let i = 0; i < columns.length; i++) row[2 * i] = c[columns[i]!] ? 0x31 : 0x30;
      await out.write(Buffer.from(row));
      drawn++;
    }
  }
  await out.flush();
  if (drawn === 0) process.stderr.write(`hub uvl sample: ${file}: no configuration extends the decisions\n`);
}
