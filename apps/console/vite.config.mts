// The admin console (docs/console.md#the-admin-console): built to dist/console, served by the api at /console with
// hashed asset names (long caching). No plugin: Vite compiles the JSX itself (React's automatic runtime).
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/console/',
  logLevel: 'warn',
  build: {
    outDir: process.env.CONSOLE_OUT_DIR ?? `${here}../../dist/console`,
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    target: 'es2022',
  },
});
