// The `hub` command line: database maintenance, the server, and the UVL toolkit.
import { existsSync } from 'node:fs';
import { Command } from 'commander';
import { registerAnalysisCommands } from './analysis-commands.ts';
import { registerArchiveCommands } from './archive-commands.ts';
import { registerDbCommands } from './db-commands.ts';
import { registerUvlCommands } from './uvl-commands.ts';
import { registerRemoteCommands } from './remote-commands.ts';

// The .env file is read like the server reads it (the real environment wins); dotenv is only
// loaded when there is one, which keeps `hub uvl …` quick to start.
if (process.env.DOTENV_CONFIG_PATH || existsSync('.env')) await import('dotenv/config');

const program = new Command();
program.name('hub').description('The hub: UVL feature model catalogue').showHelpAfterError();

registerDbCommands(program);
registerUvlCommands(program);
registerRemoteCommands(program);
registerAnalysisCommands(program);
registerArchiveCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  console.error(`hub: ${(error as Error).message}`);
  process.exitCode = 1;
}
