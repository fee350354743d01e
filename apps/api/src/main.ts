// The api process: `npm start` runs it through the launcher; `npm run start:prod:api` (or a container)
// runs it alone. libs/platform/src/runtime/start-process.ts checks settings and migrations first.
import 'reflect-metadata';
import { startProcess } from '@app/platform';
import { MIGRATIONS } from '@app/schema';
import { createApi } from './bootstrap';
import { createDemoWorkspace } from './demo';
import { startupBox } from './startup-box';

startProcess('api', MIGRATIONS, async (config) => {
  const app = await createApi(config);
  await app.init();
  // Listen first: a port already taken stops the start before workspace demo is made, so the restart
  // that follows makes it and prints its keys, rather than finding it made and its keys never shown.
  await app.listen(config.port, process.env.HOST ?? '0.0.0.0');
  const demo = config.nodeEnv !== 'production' ? await createDemoWorkspace(app) : null;
  console.log(startupBox(config, demo));
  return { stop: () => app.close() };
});
