// Unit specs live beside the code (*.spec.ts); end-to-end specs in test/ (*.e2e-spec.ts).
// Each test file gets its own fresh database (see test/harness.ts), so files run in parallel.
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
};
const libs = ['core', 'people', 'events', 'messaging', 'webhooks', 'mcp', 'sdk'];
module.exports = {
  testEnvironment: 'node',
  rootDir: '.',
  testRegex: '(\\.spec|\\.e2e-spec)\\.ts$',
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  moduleNameMapper: {
    ...Object.fromEntries(libs.map((l) => [`^@app/${l}$`, `<rootDir>/libs/${l}/src`])),
    // libs/sdk writes its relative imports with .js, as its ESM build needs; here they name the .ts files.
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testTimeout: 30000,
  maxWorkers: 2,
};
