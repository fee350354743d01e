// Unit specs live beside the code (*.spec.ts); end-to-end specs in test/ (*.e2e-spec.ts).
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
// jose ships only ES modules: jest's CommonJS loader needs them compiled (node itself loads them with require).
const swcEsm = { ...swc, jsc: { ...swc.jsc, parser: { syntax: 'ecmascript' } } };
// Every libs/* is an @app/<name> alias, so new libs need no change here.
const { readdirSync, existsSync } = require('node:fs');
const libs = readdirSync(`${__dirname}/libs`).filter((l) => existsSync(`${__dirname}/libs/${l}/src/index.ts`));
module.exports = {
  testEnvironment: 'node',
  rootDir: '.',
  testRegex: '(\\.spec|\\.e2e-spec)\\.ts$',
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // dist/ (built by `npm start` too) repeats libs/sdk/package.json: jest's module map skips it.
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
  transform: { '^.+\\.ts$': ['@swc/jest', swc], '/node_modules/jose/.+\\.js$': ['@swc/jest', swcEsm] },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  moduleNameMapper: {
    ...Object.fromEntries(libs.map((l) => [`^@app/${l}$`, `<rootDir>/libs/${l}/src`])),
    // A lib's light entries (src/entries/*.ts): @app/<lib>/<entry>.
    '^@app/([a-z-]+)/([a-z-]+)$': '<rootDir>/libs/$1/src/entries/$2',
    // libs/sdk writes its relative imports with .js, as its ESM build needs; here they name the .ts files.
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  // Migrates the template database and finds (or installs, as root) the browser of the website tag tests: `npm test` needs no manual step.
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testTimeout: 30000,
  // Three files at once: most of a run waits on processes, timers and the network (two workers kept the
  // two cores about half busy); docs/architecture.md "Tests" has the figures.
  maxWorkers: 3,
};
