#!/usr/bin/env node
// `npx @lifeline/sdk setup [--dry-run] [--cwd DIR]` (libs/sdk/README.md#setup-for-a-nextjs-project); the
// work is in setup.ts.
import { runSetup } from './setup.js';

process.exitCode = runSetup(process.argv.slice(2), {
  cwd: process.cwd(),
  print: (line) => console.log(line),
  refuse: (line) => console.error(line),
});
