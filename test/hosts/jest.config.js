// `npm run test:hosts` (docs/testing.md#across-hosts): the across-hosts runs, one file at a time, apart from
// `npm test`'s tiers. It takes the unit tier's transforms and aliases; its files are named *.hosts-spec.ts,
// which no tier of jest.config.js matches.
const { join } = require('node:path');
const root = require('../../jest.config.js');

const { displayName, testRegex, testPathIgnorePatterns, ...unit } = root.projects[0];
module.exports = {
  ...unit,
  rootDir: join(__dirname, '..', '..'),
  displayName: 'hosts',
  testRegex: '/test/hosts/.+\\.hosts-spec\\.ts$',
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  testTimeout: 600_000,
  maxWorkers: 1,
};
