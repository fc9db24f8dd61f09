#!/usr/bin/env node
// Entry of the `hub` executable: registers the TypeScript loader, then runs the CLI.
import { register } from 'tsx/esm/api';
register();
await import('../src/cli/hub.ts');
