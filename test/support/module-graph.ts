// The module graph read from the code: which module imports which (types included), against what
// each manifest `requires`. src/app/structure.test.ts enforces it and compares docs/module-graph.mmd
// with it; `npm run graph` (scripts/module-graph.ts) writes that file and the diagram in
// docs/architecture.md.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { projectPath } from '../../src/core/config.ts';
import { moduleCatalogue } from '../../src/app/modules.ts';
import { isTestCode, relativeImportsOf, runtimeImportsOf, sourceFiles } from './imports.ts';

export interface ModuleGraph {
  /** Folders under src/modules with a manifest, sorted. */
  modules: string[];
  /** Folders under src/modules without a manifest: neither a module nor allowed there. */
  loose: string[];
  requires: Map<string, string[]>;
  /** `importer -> imported -> files` over every import (type-only ones too), tests left out. */
  imports: Map<string, Map<string, string[]>>;
}

const modulesDir = () => projectPath('src/modules');

export async function readModuleGraph(): Promise<ModuleGraph> {
  const dir = modulesDir();
  const folders = readdirSync(dir).filter((entry) => statSync(join(dir, entry)).isDirectory()).sort();
  const modules = folders.filter((name) => existsSync(join(dir, name, 'module.ts')));
  const requires = new Map<string, string[]>();
  for (const name of modules) {
    const load = moduleCatalogue[name];
    // A manifest the catalogue does not list requires nothing as far as the graph can tell; the
    // imports it makes then all count as undeclared.
    requires.set(name, load ? [...(await load()).requires].sort() : []);
  }
  const imports = new Map(modules.map((name) => [name, new Map<string, string[]>()]));
  for (const file of sourceFiles(dir).filter((f) => !isTestCode(f))) {
    const own = relative(dir, file).split(sep)[0]!;
    for (const target of relativeImportsOf(file)) {
      if (!target.startsWith(dir + sep)) continue;
      const other = relative(dir, target).split(sep)[0]!;
      if (other === own || !imports.has(own)) continue;
      const edges = imports.get(own)!;
      edges.set(other, [...(edges.get(other) ?? []), relative(projectPath(), file)]);
    }
  }
  return { modules, loose: folders.filter((name) => !modules.includes(name)), requires, imports };
}

/** `importer -> imported (file)` for every import that the importer's `requires` does not name. */
export function undeclaredImports(graph: ModuleGraph): string[] {
  return [...graph.imports].flatMap(([own, edges]) => [...edges]
    .filter(([other]) => !graph.requires.get(own)?.includes(other))
    .map(([other, files]) => `${own} -> ${other} (${[...new Set(files)].join(', ')})`));
}

export function importEdges(graph: ModuleGraph): Map<string, Set<string>> {
  return new Map([...graph.imports].map(([own, edges]) => [own, new Set(edges.keys())]));
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
 * The files' runtime imports among themselves, by path from the project root. Type-only imports
 * load nothing, so they cannot make an evaluation order depend on itself and are left out.
 */
export function fileGraph(files: string[]): Map<string, Set<string>> {
  const known = new Set(files);
  const shown = (file: string) => relative(projectPath(), file);
  return new Map(files.map((file) => [shown(file), new Set(runtimeImportsOf(file).filter((t) => known.has(t)).map(shown))]));
}

/**
 * The rooms whose files must not import each other in a circle: every file of packages/uvl,
 * packages/analysis, src/core, src/cli and src/app, and each module's top-level files (the
 * folders inside a module are its own business).
 */
export function roomFiles(): { room: string; files: string[] }[] {
  const whole = ['packages/uvl', 'packages/analysis', 'src/core', 'src/cli', 'src/app']
    .map((room) => ({ room, files: sourceFiles(projectPath(room)).filter((f) => !isTestCode(f)) }));
  const dir = modulesDir();
  const modules = readdirSync(dir).filter((entry) => statSync(join(dir, entry)).isDirectory()).sort()
    .map((name) => ({ room: `src/modules/${name}`, files: sourceFiles(join(dir, name)).filter((f) => !isTestCode(f) && dirname(f) === join(dir, name)) }));
  return [...whole, ...modules];
}

/**
 * The Mermaid flowchart of the modules: a solid arrow for an import (the importer points at what
 * it imports), a dotted one for a `requires` no import follows (the two must be enabled together,
 * the coupling rules of the specification, but one reaches the other only through the service
 * registry or events). Sorted, so the text changes only when the graph does.
 */
export function mermaidOf(graph: ModuleGraph): string {
  const lines = [
    '%% Generated by `npm run graph` (scripts/module-graph.ts) from src/modules: do not edit by hand.',
    '%% A --> B: A imports B (through B/index.ts; type-only imports too). A -.-> B: A requires B',
    '%% (coupling rules) and reaches it only through the service registry or events.',
    '%% src/app/structure.test.ts fails when this file or the diagram in docs/architecture.md differs.',
    'flowchart LR',
  ];
  const linked = new Set([...graph.requires].flatMap(([name, required]) => (required.length > 0 ? [name, ...required] : [])));
  for (const [name, edges] of graph.imports) if (edges.size > 0) [name, ...edges.keys()].forEach((n) => linked.add(n));
  for (const name of graph.modules) {
    const imported = [...(graph.imports.get(name)?.keys() ?? [])].sort();
    const required = graph.requires.get(name) ?? [];
    // A module with no arrow at all (webhook) is still drawn.
    if (!linked.has(name)) lines.push(`  ${name}`);
    for (const other of imported) lines.push(`  ${name} --> ${other}`);
    for (const other of required.filter((r) => !imported.includes(r))) lines.push(`  ${name} -.-> ${other}`);
  }
  return `${lines.join('\n')}\n`;
}

export const GRAPH_FILE = 'docs/module-graph.mmd';
export const ARCHITECTURE_FILE = 'docs/architecture.md';
const BEGIN = '<!-- module graph: begin (npm run graph) -->';
const END = '<!-- module graph: end -->';

/** The architecture text with its diagram block replaced by `mermaid`; undefined when it has no markers. */
export function withDiagram(architecture: string, mermaid: string): string | undefined {
  const begin = architecture.indexOf(BEGIN);
  const end = architecture.indexOf(END);
  if (begin < 0 || end < begin) return undefined;
  return `${architecture.slice(0, begin + BEGIN.length)}\n\`\`\`mermaid\n${mermaid}\`\`\`\n${architecture.slice(end)}`;
}
