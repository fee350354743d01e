// Run as a child process by global-setup.ts (jest's globalSetup resolves no @app/* imports): makes the
// template database of the current migrations, drops older ones, and prints its name.
import { ensureTemplate } from './template';

ensureTemplate({ prune: true }).then(
  (name) => console.log(name),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
