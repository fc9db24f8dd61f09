// `hub uvl count FILE [--approx [--epsilon E] [--delta D] [--seed S] [--hash-all]] [--timeout SECONDS] [--json]`:
// the exact number of configurations, or with --approx an estimate within a factor (1 + ε) of
// it with probability at least 1 - δ (extensions section 6a). Exit 1 for an invalid model, a bad
// value or a budget run out (nothing is guessed); with --json such a file still gets its JSON line.

import type { Command } from 'commander';
import { formatDiagnostic } from '../../packages/uvl/src/index.ts';
import {
  countConfigurations,
  DEFAULT_DELTA,
  DEFAULT_EPSILON,
  Deadline,
  estimateConfigurations,
  estimateField,
  modelBackbone,
  satEncoding,
  type ApproxCount,
} from '../../packages/analysis/src/index.ts';
import { loadAndParse } from './uvl-files.ts';

const DEFAULT_SECONDS = 600;

interface CountOptions {
  approx?: boolean;
  epsilon?: string;
  delta?: string;
  seed: string;
  hashAll?: boolean;
  timeout?: string;
  json?: boolean;
}

class Reported extends Error {}

function fail(message: string): never {
  process.stderr.write(`hub uvl count: ${message}\n`);
  throw new Reported();
}

/**
 * A file that was not counted (exit 1): with --json its line on standard output, as `hub uvl
 * analyze` and `configure` report theirs (an invalid model `{"file", "valid": false, "errors"}`;
 * a budget run out gives null values, `timeouts` and the `error`, nothing guessed); else `message`
 * on standard error.
 */
function failFile(json: boolean | undefined, line: Record<string, unknown>, message: string): never {
  if (!json) fail(message);
  process.stdout.write(`${JSON.stringify(line)}\n`);
  throw new Reported();
}

/** A number option within its bounds, else a clear error. */
function numberOption(name: string, value: string | undefined, fallback: number, valid: (n: number) => boolean, bounds: string): number {
  if (value === undefined) return fallback;
  const n = /^\s*[0-9.eE+-]+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n) || !valid(n)) fail(`--${name} must be ${bounds}, not '${value}'`);
  return n;
}

/** `1.2 × 10^141` for a count too long to read, the digits otherwise. */
function readable(value: bigint, log10: number): string {
  if (value < 10n ** 15n) return value.toString();
  const exponent = Math.floor(log10);
  return `${(10 ** (log10 - exponent)).toFixed(1)} × 10^${exponent}`;
}

function guarantee(a: ApproxCount): string {
  return `within a factor ${1 + a.epsilon} of the count with probability at least ${Math.round((1 - a.delta) * 1000) / 1000}; ${a.method}`;
}

function countCommand(file: string, options: CountOptions): void {
  if (!options.approx && (options.epsilon !== undefined || options.delta !== undefined)) fail('--epsilon and --delta go with --approx');
  if (!options.approx && options.hashAll) fail('--hash-all goes with --approx');
  const epsilon = numberOption('epsilon', options.epsilon, DEFAULT_EPSILON, (n) => n > 0 && n <= 10, 'a number above 0 and at most 10');
  const delta = numberOption('delta', options.delta, DEFAULT_DELTA, (n) => n > 0 && n < 1, 'a number between 0 and 1');
  const seconds = numberOption('timeout', options.timeout, DEFAULT_SECONDS, (n) => n > 0, 'a positive number of seconds');
  const seed = numberOption('seed', options.seed, 1, (n) => Number.isInteger(n) && n >= 0 && n < 2 ** 32, 'an integer from 0 to 4294967295');
  const loaded = loadAndParse(file);
  if (!loaded.ok) failFile(options.json, { file, valid: false, errors: [loaded.error] }, `${file}: ${loaded.error}`);
  const errors = loaded.result.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
  if (errors.length > 0) failFile(options.json, { file, valid: false, errors }, `${file}: invalid model:\n${errors.map((e) => `  ${e}`).join('\n')}`);
  const model = loaded.result.model;
  if (!model.root) failFile(options.json, { file, valid: false, errors: ['the model has no features'] }, `${file}: the model has no features`);
  const deadline = Deadline.after(seconds * 1000);
  const started = performance.now();
  const enc = satEncoding(model, loaded.text);
  const booleanOnly = enc.ignored === 0;
  const note = booleanOnly ? '' : ` of the Boolean part (${enc.ignored} constraint(s) left out)`;
  if (!options.approx) {
    const count = countConfigurations(model, enc, deadline, loaded.text);
    if (count === null) {
      const message = `not counted within ${seconds} s (--approx gives an estimate)`;
      failFile(options.json, { file, configurations: null, configurations_status: 'timeout', boolean_only: booleanOnly, timeouts: ['count'], error: message }, `${file}: ${message}`);
    }
    const out = options.json ? JSON.stringify({ file, configurations: count.toString(), configurations_status: 'exact', boolean_only: booleanOnly }) : `${file}: ${count} configurations${note}`;
    process.stdout.write(`${out}\n`);
    return;
  }
  // Core and dead features have one value in every configuration: the hashes leave them out.
  const backbone = modelBackbone(enc, deadline)?.value;
  const estimate = estimateConfigurations(enc, { epsilon, delta, seed, deadline, backbone: backbone ?? undefined, factor: !options.hashAll });
  if (estimate === null) {
    const message = `not estimated within ${seconds} s`;
    const line = { file, configurations: null, configurations_status: 'timeout', configurations_estimate: null, boolean_only: booleanOnly, seed, timeouts: ['estimate'], error: message };
    failFile(options.json, line, `${file}: ${message}`);
  }
  const ms = Math.round(performance.now() - started);
  if (options.json) {
    const exact = estimate.exact ? { configurations: estimate.value.toString(), configurations_status: 'exact' } : { configurations: null, configurations_status: 'skipped' };
    process.stdout.write(`${JSON.stringify({ file, ...exact, configurations_estimate: estimateField(estimate), boolean_only: booleanOnly, seed, timings_ms: { estimate: ms } })}\n`);
    return;
  }
  const line = estimate.exact
    ? `${file}: ${estimate.value} configurations${note} (exact: ${estimate.method.replace(/^exact \((.*)\)$/, '$1')})`
    : `${file}: about ${readable(estimate.value, estimate.log10)} configurations${note} (an estimate: ${guarantee(estimate)}; ${ms} ms)`;
  process.stdout.write(`${line}\n`);
}

export function registerCountCommands(uvl: Command): void {
  uvl
    .command('count')
    .description('The number of configurations: exact, or with --approx an estimate within a factor (1 + epsilon) with probability at least 1 - delta')
    .argument('<file>', 'UVL file')
    .option('--approx', 'estimate with a guarantee instead of counting exactly: the components that can be counted exactly are, the rest is hashed with random XOR constraints (ApproxMC)')
    .option('--epsilon <e>', `tolerance: the estimate is within a factor (1 + e) of the count (default ${DEFAULT_EPSILON})`)
    .option('--delta <d>', `the guarantee fails with probability at most d (default ${DEFAULT_DELTA})`)
    .option('--seed <seed>', 'seed of the random hashes (a non-negative integer)', '1')
    .option('--hash-all', 'with --approx: hash the whole model, no component counted exactly first (to check the estimator itself)')
    .option('--timeout <seconds>', `time budget (default ${DEFAULT_SECONDS})`)
    .option('--json', 'one JSON object: {"file", "configurations", "configurations_estimate", ...}; an invalid model {"file", "valid": false, "errors"}, a budget run out "configurations": null with "timeouts" and "error"')
    .action((file: string, options: CountOptions) => {
      try {
        countCommand(file, options);
      } catch (error) {
        if (!(error instanceof Reported)) throw error;
        process.exitCode = 1;
      }
    });
}
