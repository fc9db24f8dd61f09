// The layout's rules (design.md, docs/architecture.md): core imports no module, no CLI and not the
// application; the top-level folders depend on each other without a cycle; modules import each
// other only as their manifests' `requires` allow.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { projectPath } from '../core/config.ts';
import { readModuleSelection } from '../core/modules.ts';
import { loadConfig } from '../core/config.ts';
import { isTestCode, relativeImportsOf, runtimeImportsOf, sourceFiles } from '../../test/support/imports.ts';
import { moduleCatalogue } from './modules.ts';

const ROOMS = ['packages/uvl', 'packages/analysis', 'src/core', 'src/modules', 'src/cli', 'src/app'];
const roomOf = (file: string) => ROOMS.find((room) => file.startsWith(projectPath(room) + sep));
const shown = (file: string) => relative(projectPath(), file);

/** `room -> room` for every import between top-level folders, tests left out (they assemble everything). */
function roomGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>(ROOMS.map((room) => [room, new Set()]));
  for (const room of ROOMS) {
    for (const file of sourceFiles(projectPath(room)).filter((f) => !isTestCode(f))) {
      for (const target of relativeImportsOf(file)) {
        const other = roomOf(target);
        if (other && other !== room) graph.get(room)!.add(other);
      }
    }
  }
  return graph;
}

/** One cycle of the graph as `a -> b -> a`, or undefined when it has none (depth-first search). */
export function findCycle(graph: Map<string, Set<string>>): string | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node].join(' -> ');
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

/**
 * Runtime imports of one module by another that its `requires` does not name. Each is a pure helper
 * (no service, no state) of a module that every environment list of modules.json selects together
 * with the importer, which the test below checks; adding to `requires` would change the
 * specification's coupling rules (decisions section 2), which must stay as they are.
 */
const HELPERS_BEYOND_REQUIRES: Record<string, string> = {
  'analysis -> explore': 'normalizeText: the searches\' one text folding (explore rule 1), shared by the feature-name filter',
  'api -> explore': 'parseSearchBody and MAX_TERMS: the API search reads its body by the rules of POST /explore',
  'dataset -> citation': 'negotiateFormat, exportPathOf, sendCitationFile: the DOI page answers citation formats',
};

describe('structure', () => {
  it('core imports no module, no CLI and not the application', () => {
    const core = projectPath('src/core');
    const forbidden = ['src/modules', 'src/cli', 'src/app'].map((room) => projectPath(room) + sep);
    const violations = sourceFiles(core).flatMap((file) => relativeImportsOf(file)
      .filter((target) => forbidden.some((room) => target.startsWith(room)))
      .map((target) => `${shown(file)} imports ${shown(target)}`));
    assert.deepEqual(violations, []);
  });

  it('only the CLI imports the application (besides tests)', () => {
    const app = projectPath('src/app') + sep;
    const violations = ROOMS.filter((room) => room !== 'src/app' && room !== 'src/cli')
      .flatMap((room) => sourceFiles(projectPath(room)).filter((f) => !isTestCode(f)))
      .flatMap((file) => relativeImportsOf(file).filter((t) => t.startsWith(app)).map((t) => `${shown(file)} imports ${shown(t)}`));
    assert.deepEqual(violations, []);
  });

  it('the top-level folders import each other without a cycle', () => {
    assert.equal(findCycle(roomGraph()), undefined);
  });

  it('finds a cycle where there is one', () => {
    const graph = new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a'])], ['d', new Set(['a'])]]);
    assert.equal(findCycle(graph), 'a -> b -> c -> a');
    assert.equal(findCycle(new Map([['a', new Set(['b'])], ['b', new Set<string>()]])), undefined);
  });

  it('modules import each other only as their manifests\' requires allow', async () => {
    const modulesDir = projectPath('src/modules');
    const requires = new Map<string, string[]>();
    for (const [name, load] of Object.entries(moduleCatalogue)) requires.set(name, (await load()).requires);
    const violations = new Set<string>();
    for (const file of sourceFiles(modulesDir).filter((f) => !isTestCode(f))) {
      const own = relative(modulesDir, file).split(sep)[0]!;
      for (const target of runtimeImportsOf(file)) {
        if (!target.startsWith(modulesDir + sep)) continue;
        const other = relative(modulesDir, target).split(sep)[0]!;
        // A folder without a manifest (deposit) is a library of the modules, not a module.
        if (other === own || !existsSync(join(modulesDir, other, 'module.ts'))) continue;
        const edge = `${own} -> ${other}`;
        if (!requires.get(own)?.includes(other) && !(edge in HELPERS_BEYOND_REQUIRES)) violations.add(`${edge} (${shown(file)})`);
      }
    }
    assert.deepEqual([...violations], []);
  });

  it('each helper imported beyond requires comes from a module selected with its importer in every environment', () => {
    const file = projectPath('modules.json');
    for (const env of ['development', 'production'] as const) {
      const selected = readModuleSelection(loadConfig({ HUB_MODULES_FILE: file, NODE_ENV: env, SECRET_KEY: 'k' }));
      for (const edge of Object.keys(HELPERS_BEYOND_REQUIRES)) {
        const [importer, imported] = edge.split(' -> ') as [string, string];
        if (selected.includes(importer)) assert.ok(selected.includes(imported), `${env}: ${edge}`);
      }
    }
  });
});
