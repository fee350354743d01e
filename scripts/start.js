#!/usr/bin/env node
// npm start (api + worker), npm run start:api, npm run start:worker.
require('@swc-node/register');
const { launch } = require('../libs/core/src/runtime/launcher');
const which = process.argv[2];
launch(which ? [which] : ['api', 'worker']);
