// `npm run graph`: writes the module graph read from the code (test/support/module-graph.ts) to
// docs/module-graph.mmd and into the diagram block of docs/architecture.md. structure.test.ts
// fails until both match the code, so run this after changing an import between modules or a
// manifest's `requires`.
import { readFileSync, writeFileSync } from 'node:fs';
import { projectPath } from '../src/core/config.ts';
import { ARCHITECTURE_FILE, GRAPH_FILE, mermaidOf, readModuleGraph, withDiagram } from '../test/support/module-graph.ts';

const mermaid = mermaidOf(await readModuleGraph());
writeFileSync(projectPath(GRAPH_FILE), mermaid);
const architecture = withDiagram(readFileSync(projectPath(ARCHITECTURE_FILE), 'utf8'), mermaid);
if (architecture === undefined) {
  console.error(`${ARCHITECTURE_FILE} has no module graph block (its begin and end markers); ${GRAPH_FILE} was written.`);
  process.exit(1);
}
writeFileSync(projectPath(ARCHITECTURE_FILE), architecture);
console.log(`Wrote ${GRAPH_FILE} and the diagram in ${ARCHITECTURE_FILE}.`);
