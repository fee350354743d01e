#!/usr/bin/env node
// npm start (api + worker), npm run start:api, npm run start:worker.
require('@swc-node/register');
require('../apps/launcher/src/main');
