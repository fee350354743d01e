// Three tiers, each a jest project that sets up only what it needs (docs/testing.md):
// unit: specs beside the code (*.spec.ts) and test/*.spec.ts, no database, console or browser;
// medium: test/medium/*.spec.ts, real repositories on PostgreSQL and Redis, the template database only;
// e2e: test/*.e2e-spec.ts over HTTP, and *.browser.spec.ts, with the template, the console build and a browser.
// `npm test -- --selectProjects unit` runs one tier; a file named by its path runs only its tier's set-up.
// Each test file gets its own database, cloned from a template migrated once per run (test/support/template.ts), so files run in parallel.
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
};
// jose and oauth4webapi ship only ES modules: jest's CommonJS loader needs them compiled (node itself loads
// jose with require).
const swcEsm = { ...swc, jsc: { ...swc.jsc, parser: { syntax: 'ecmascript' } } };
// Every libs/* is an @app/<name> alias, so new libs need no change here.
const { readdirSync, existsSync } = require('node:fs');
const libs = readdirSync(`${__dirname}/libs`).filter((l) => existsSync(`${__dirname}/libs/${l}/src/index.ts`));
const ignored = ['/node_modules/', '/dist/'];
// What every tier shares: a project takes none of the root's project options, so each spreads these.
const project = {
  testEnvironment: 'node',
  rootDir: '.',
  testPathIgnorePatterns: ignored,
  // dist/ (built by `npm start` too) repeats libs/sdk/package.json: jest's module map skips it.
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
  transform: { '^.+\\.ts$': ['@swc/jest', swc], '/node_modules/(jose|oauth4webapi)/.+\\.js$': ['@swc/jest', swcEsm] },
  transformIgnorePatterns: ['/node_modules/(?!(jose|oauth4webapi)/)'],
  moduleNameMapper: {
    ...Object.fromEntries(libs.map((l) => [`^@app/${l}$`, `<rootDir>/libs/${l}/src`])),
    // A lib's light entries (src/entries/*.ts): @app/<lib>/<entry>.
    '^@app/([a-z-]+)/([a-z-]+)$': '<rootDir>/libs/$1/src/entries/$2',
    // libs/sdk writes its relative imports with .js, as its ESM build needs; here they name the .ts files.
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
};
// A spec beside the code that drives the browser is named *.browser.spec.ts: the e2e tier finds the browser.
const browserSpec = '\\.browser\\.spec\\.ts$';
module.exports = {
  projects: [
    {
      ...project,
      displayName: 'unit',
      testRegex: '\\.spec\\.ts$',
      testPathIgnorePatterns: [...ignored, '<rootDir>/test/medium/', browserSpec],
    },
    {
      ...project,
      displayName: 'medium',
      testRegex: '/test/medium/.+\\.spec\\.ts$',
      // Builds the migrated template database only.
      globalSetup: '<rootDir>/test/support/medium-setup.ts',
    },
    {
      ...project,
      displayName: 'e2e',
      testRegex: ['\\.e2e-spec\\.ts$', browserSpec],
      // Migrates the template database, builds the console and finds (or installs, as root) the browser of the
      // website tag tests: `npm test` needs no manual step.
      globalSetup: '<rootDir>/test/support/global-setup.ts',
    },
  ],
  // Read by jest as a whole, not per project: they stay here.
  testTimeout: 30000,
  // Three files at once: most of a run waits on processes, timers and the network (two workers kept the
  // two cores about half busy); docs/testing.md#how-long has the figures.
  maxWorkers: 3,
};
