// The layout's rules (design.md, docs/architecture.md): core imports no module, no CLI and not the
// application; the top-level folders depend on each other without a cycle; modules import each
// other only as their manifests' `requires` allow (type-only imports too) and without a cycle; no
// room's files import each other in a circle; docs/module-graph.mmd is the graph of the code.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { projectPath } from '../core/config.ts';
import { isTestCode, relativeImportsOf, sourceFiles } from '../../test/support/imports.ts';
import {
  ARCHITECTURE_FILE, GRAPH_FILE, fileGraph, findCycle, importEdges, mermaidOf, readModuleGraph, roomFiles, undeclaredImports, withDiagram,
} from '../../test/support/module-graph.ts';

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

  it('names an import beyond requires, and draws imports solid and requires without import dotted', () => {
    const graph = {
      modules: ['a', 'b', 'c', 'd'],
      loose: [],
      requires: new Map([['a', ['b', 'c']], ['b', []], ['c', []], ['d', []]]),
      imports: new Map([['a', new Map([['b', ['src/modules/a/x.ts']]])], ['b', new Map()], ['c', new Map([['b', ['src/modules/c/y.ts']]])], ['d', new Map()]]),
    };
    assert.deepEqual(undeclaredImports(graph), ['c -> b (src/modules/c/y.ts)']);
    assert.deepEqual(mermaidOf(graph).split('\n').filter((line) => line.startsWith('  ')), ['  a --> b', '  a -.-> c', '  c --> b', '  d']);
  });

  it('modules import each other only as their manifests\' requires allow, type imports included', async () => {
    assert.deepEqual(undeclaredImports(await readModuleGraph()), []);
  });

  it('the modules import each other without a cycle', async () => {
    assert.equal(findCycle(importEdges(await readModuleGraph())), undefined);
  });

  it('every folder under src/modules is a module (has a manifest)', async () => {
    assert.deepEqual((await readModuleGraph()).loose, []);
  });

  it('no room\'s files import each other in a circle (packages, core, CLI, application, each module\'s top level)', () => {
    const cycles = roomFiles().map(({ files }) => findCycle(fileGraph(files))).filter((cycle) => cycle !== undefined);
    assert.deepEqual(cycles, []);
  });

  it('docs/module-graph.mmd and the diagram in docs/architecture.md are the graph of the code (npm run graph)', async () => {
    const mermaid = mermaidOf(await readModuleGraph());
    assert.equal(readFileSync(projectPath(GRAPH_FILE), 'utf8'), mermaid, `${GRAPH_FILE} is out of date: run npm run graph`);
    const architecture = readFileSync(projectPath(ARCHITECTURE_FILE), 'utf8');
    assert.equal(withDiagram(architecture, mermaid), architecture, `the diagram in ${ARCHITECTURE_FILE} is out of date: run npm run graph`);
  });
});
