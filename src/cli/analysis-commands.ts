// `hub analysis:run [--all]` (extensions section 1, "In the hub"): queues the models that have no
// analysis yet (with --all, computes every result again) and analyses what is queued in this
// process, claiming rows like a server does, so it may run beside live instances.
import type { Command } from 'commander';
import { withContext } from './db-commands.ts';

export function registerAnalysisCommands(program: Command): void {
  program.command('analysis:run')
    .description('Analyse the models that have no analysis yet (--all: every model again), then exit')
    .option('--all', 'compute every result again')
    .action(async (options: { all?: boolean }) => {
      await withContext(async (ctx) => {
        if (!ctx.isEnabled('analysis')) throw new Error('the analysis module is not enabled in modules.json.');
        const analysis = ctx.services.analysis;
        const queued = await analysis.enqueueMissing();
        const reset = options.all ? await analysis.resetAll() : 0;
        console.log(`Queued ${queued} model file(s) without an analysis${options.all ? `; ${reset} result(s) to compute again` : ''}.`);
        // At least one worker here, even where ANALYSIS_WORKERS=0 keeps a web instance from analysing.
        analysis.start(1);
        try {
          await analysis.drain();
        } finally {
          await analysis.stop();
        }
        const counts = await analysis.countByStatus();
        console.log(`Analyses: ${['done', 'partial', 'failed', 'pending', 'running'].map((s) => `${s} ${counts[s] ?? 0}`).join(', ')}.`);
      });
    });
}
