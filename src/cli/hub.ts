// The `hub` command line: database maintenance, the server, and the UVL toolkit.
import 'dotenv/config';
import { Command } from 'commander';
import { registerAnalysisCommands } from './analysis-commands.ts';
import { registerDbCommands } from './db-commands.ts';
import { registerUvlCommands } from './uvl-commands.ts';

const program = new Command();
program.name('hub').description('The hub: UVL feature model catalogue').showHelpAfterError();

registerDbCommands(program);
registerUvlCommands(program);
registerAnalysisCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  console.error(`hub: ${(error as Error).message}`);
  process.exitCode = 1;
}
