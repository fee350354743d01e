// `npm start` and `npm run start:prod`: the launcher of libs/platform (runtime/launcher.ts) with every
// lib's migrations; `npm run start:api` / `start:worker` name one app.
import { launch } from '@app/platform/launcher';
import { MIGRATIONS } from '@app/schema';

type AppName = 'api' | 'worker';
void launch(process.argv[2] ? [process.argv[2] as AppName] : ['api', 'worker'], MIGRATIONS);
