// The configurator's worker thread: keeps the last few models compiled (warm), so that a
// configure step or a commonality is one pass over the compiled form, and computes samples.
// It reads no file and opens no database; the main thread sends the model's text when asked.
import { parentPort } from 'node:worker_threads';
import { formatDiagnostic, parseUvl, type Feature, type UvlModel } from '../../../packages/uvl/src/index.ts';
import {
  compileModel, Configurator, Deadline, ENGINE_VERSION, twiseSample, UnknownFeatureError, type CompiledModel,
} from '../../../packages/analysis/src/index.ts';
import type { ConfiguratorJob, ConfiguratorReply } from './configurator.protocol.ts';

/** Models kept compiled; a compiled automotive2_4 takes tens of MB, so only a few. */
const WARM_MODELS = 4;

interface WarmModel {
  model: UvlModel;
  text: string;
  compiled: CompiledModel;
  /** The engine's configurator (SAT propagation, conflicts, why), built at the first step; it counts on the compiled form. */
  configurator?: Configurator;
}

/** Least recently used first (a Map keeps insertion order; a hit is moved to the end). */
const warm = new Map<string, WarmModel>();

class JobFailure extends Error {}

function warmModel(job: ConfiguratorJob): WarmModel | undefined {
  const hit = warm.get(job.model.sha256);
  if (hit) {
    warm.delete(job.model.sha256);
    warm.set(job.model.sha256, hit);
    return hit;
  }
  if (job.model.text === undefined) return undefined;
  const parsed = parseUvl(job.model.text, { fileName: job.model.fileName });
  const errors = parsed.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
  if (errors.length > 0 || !parsed.model) throw new JobFailure(`The model is not valid UVL: ${errors.slice(0, 5).join('; ')}`);
  const compiled = compileModel(parsed.model, { text: job.model.text, deadline: Deadline.after(job.timeoutMs) });
  if (!compiled) throw new JobFailure(`The model could not be compiled within the time budget of ${Math.round(job.timeoutMs / 1000)} s.`);
  const entry = { model: parsed.model, text: job.model.text, compiled };
  warm.set(job.model.sha256, entry);
  while (warm.size > WARM_MODELS) warm.delete(warm.keys().next().value!);
  return entry;
}

function commonality(compiled: CompiledModel) {
  const { configurations, counts } = compiled.commonality();
  const features: Record<string, { commonality: string; probability: number }> = {};
  compiled.names.forEach((name, i) => {
    features[name] = { commonality: counts[i]!.toString(), probability: configurations === 0n ? 0 : ratio(counts[i]!, configurations) };
  });
  return { configurations: configurations.toString(), boolean_only: compiled.ignoredConstraints === 0, features };
}

/** a / b as a double, exact enough for numbers of any size (both scaled down together). */
function ratio(a: bigint, b: bigint): number {
  const shift = BigInt(Math.max(0, b.toString(2).length - 60));
  return Number(a >> shift) / Number(b >> shift);
}

function uniform(compiled: CompiledModel, job: Extract<ConfiguratorJob, { op: 'uniform' }>) {
  const known = (name: string) => { if (compiled.variableOf(name) === undefined) throw new UnknownFeatureError(name); return name; };
  const decisions = { selected: job.selected.map(known), deselected: job.deselected.map(known) };
  const configurations = compiled.sampleUniform(job.n, job.seed, decisions).map((c) => compiled.selectedNames(c));
  return {
    kind: 'uniform', n: job.n, seed: job.seed, selected: job.selected, deselected: job.deselected,
    engine_version: ENGINE_VERSION, boolean_only: compiled.ignoredConstraints === 0,
    features: [...compiled.names].sort(), configurations,
  };
}

/** The feature tree in pre-order, compact: the configurator's page draws it (big models have ~20,000 features). */
function tree(model: UvlModel): { features: [string, number, string][] } {
  const features: [string, number, string][] = [];
  const stack: { feature: Feature; parent: number; group: string }[] = model.root ? [{ feature: model.root, parent: -1, group: '' }] : [];
  while (stack.length > 0) {
    const { feature, parent, group } = stack.pop()!;
    const index = features.push([feature.name, parent, group]) - 1;
    // Pushed in reverse so that children come out in source order.
    for (const g of [...feature.groups].reverse()) {
      for (const child of [...g.children].reverse()) stack.push({ feature: child, parent: index, group: g.kind });
    }
  }
  return { features };
}

/** One configure step, with the explanation of one feature's state when asked. */
function configure(entry: WarmModel, job: Extract<ConfiguratorJob, { op: 'configure' }>) {
  entry.configurator ??= new Configurator(entry.model, { text: entry.text, counter: (assumptions) => entry.compiled.count(assumptions) });
  const decisions = { selected: job.selected, deselected: job.deselected };
  const deadline = Deadline.after(job.timeoutMs);
  const result = entry.configurator.configure(decisions, { deadline, countTimeoutMs: job.timeoutMs });
  if (job.why === undefined || !result.consistent) return result;
  return { ...result, why: entry.configurator.why(decisions, job.why, { deadline }) };
}

function twise(entry: WarmModel, job: Extract<ConfiguratorJob, { op: 'twise' }>) {
  const result = twiseSample(entry.model, { t: job.t, seed: job.seed, deadline: Deadline.after(job.timeoutMs), text: entry.text });
  return { ...result, engine_version: ENGINE_VERSION };
}

function run(job: ConfiguratorJob): ConfiguratorReply {
  const entry = warmModel(job);
  if (!entry) return { id: job.id, kind: 'need-text' };
  switch (job.op) {
    case 'configure': return { id: job.id, kind: 'done', json: JSON.stringify(configure(entry, job)) };
    case 'tree': return { id: job.id, kind: 'done', json: JSON.stringify(tree(entry.model)) };
    case 'commonality': {
      const result = commonality(entry.compiled);
      const probabilities = Object.fromEntries(Object.entries(result.features).map(([name, f]) => [name, f.probability]));
      return { id: job.id, kind: 'done', json: JSON.stringify(result), summary: JSON.stringify(probabilities) };
    }
    case 'uniform': return { id: job.id, kind: 'done', json: JSON.stringify(uniform(entry.compiled, job)) };
    case 'twise': return { id: job.id, kind: 'done', json: JSON.stringify(twise(entry, job)) };
  }
}

parentPort!.on('message', (job: ConfiguratorJob) => {
  let reply: ConfiguratorReply;
  try {
    reply = run(job);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    reply = { id: job.id, kind: error instanceof UnknownFeatureError ? 'bad-value' : 'failed', message };
  }
  parentPort!.postMessage(reply);
});
