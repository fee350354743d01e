// The api process. Start it through `npm start` / `npm run start:api`, which resolve the database
// and Redis (embedded fallbacks included) and run migrations before this runs.
import 'reflect-metadata';
import { ConfigError, loadConfig, warnAboutTestOnlySettings } from '@app/core';
import { createApi } from './bootstrap';
import { createDemoWorkspace } from './demo';

async function main() {
  const config = loadConfig(process.env);
  warnAboutTestOnlySettings(config);
  const app = await createApi(config);
  await app.init();
  if (config.nodeEnv !== 'production') await createDemoWorkspace(app);
  await app.listen(config.port, process.env.HOST ?? '0.0.0.0');
  console.log(`api listening on ${config.baseUrl} (GraphQL at ${config.baseUrl}/graphql)`);
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
