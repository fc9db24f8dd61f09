// `npm run bench:editor`: the model editor in Chromium (extensions section 12 targets), on a hub
// started in this process. Prints, as medians of BENCH_RUNS keystrokes:
// - automotive01 (2,513 features): keystroke to diagnostic (target < 100 ms) and its analysis in
//   the browser's worker (target < 10 s);
// - automotive2_4 (18,616 features): opened, i.e. navigation to the first check listed (target
//   < 3 s), a keystroke to the frame that shows it (target < 100 ms), and to its diagnostic;
// - the bundle's files, raw and gzip (the page loads the panel and the engine only when shown).
// Asserts nothing.
import { findCorpus } from '../packages/uvl/src/corpus.support.ts';
import { startTestServer } from '../test/support/server.ts';
import { storeModel } from '../src/modules/model/model.test-support.ts';
import { launchBrowser } from '../test/browser/support.ts';
import { analysisIn, keystrokeAnswered, keystrokeToDiagnostic, openedIn, panelSettled } from '../test/browser/editor-timing.ts';
import { editorBundle } from '../src/modules/editor/editor.bundle.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const A01 = 'real/Feature_Models/Automotive/Automotive01/automotive01.uvl';
const A24 = 'real/Feature_Models/Automotive/Automotive02/automotive2_4.uvl';
const corpus = findCorpus();
if (!corpus) {
  console.error('UVL corpus not found (set UVL_CORPUS)');
  process.exit(1);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(0)} ms`;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** RUNS keystrokes at the end of `line`: an error typed, then taken back, each measured. */
async function keystrokes(measure: (key: string) => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) out.push(await measure(i % 2 === 0 ? '=' : 'Backspace'));
  return out;
}

const bundle = await editorBundle();
console.log('bundle (gzip):');
for (const [name, file] of bundle.files) console.log(`  ${name.padEnd(40)} ${kb(file.body.length).padStart(9)} ${kb(file.gzip.length).padStart(9)}`);

const server = await startTestServer({ seed: true, env: { ANALYSIS_WORKERS: '0', LOG_LEVEL: 'warn' } });
const browser = await launchBrowser();
try {
  const a01 = await storeModel(server, { content: corpus.read(A01), name: 'automotive01.uvl' });
  const a24 = await storeModel(server, { content: corpus.read(A24), name: 'automotive2_4.uvl' });

  const wide = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const opened01 = await openedIn(wide, `${server.baseUrl}/editor/file/${a01.fileId}`);
  const analysis = await analysisIn(wide);
  console.log(`automotive01: opened ${ms(opened01)}; analysis in the worker ${ms(analysis.ms)} (${analysis.configurations.length}-digit count)`);
  // Each keystroke once the panel caught up with the last one (its analysis finished), then
  // keystrokes in a row, quicker than the panel's pause (the worker waits for typing to stop).
  const settled = await keystrokes(async (key) => {
    const { ms: took } = await keystrokeToDiagnostic(wide, 10, key);
    await panelSettled(wide);
    return took;
  });
  const burst = await keystrokes(async (key) => (await keystrokeToDiagnostic(wide, 10, key)).ms);
  console.log(`automotive01: keystroke to diagnostic, panel idle: median ${ms(median(settled))} (max ${ms(Math.max(...settled))}); typing in a row: median ${ms(median(burst))} (max ${ms(Math.max(...burst))}); ${RUNS} runs each`);
  await wide.close();

  // Below the panel's width: the editor alone, as a person typing in a large model sees it.
  const narrow = await browser.newPage({ viewport: { width: 960, height: 900 } });
  const opened24 = await openedIn(narrow, `${server.baseUrl}/editor/file/${a24.fileId}`);
  const answered = await keystrokes((key) => keystrokeAnswered(narrow, 20, key));
  const diagnosed = await keystrokes(async (key) => (await keystrokeToDiagnostic(narrow, 20, key)).ms);
  console.log(`automotive2_4: opened ${ms(opened24)}; keystroke drawn median ${ms(median(answered))} (max ${ms(Math.max(...answered))}); keystroke to diagnostic median ${ms(median(diagnosed))} (max ${ms(Math.max(...diagnosed))})`);
  await narrow.close();
} finally {
  await browser.close();
  await server.close();
}
