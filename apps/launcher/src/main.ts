// `npm start` and `npm run start:prod`: the launcher of libs/platform (runtime/launcher.ts), which
// loads Node's built-ins only; `npm run start:api` / `start:worker` name one app. Its preparation
// (databases, settings, every lib's migrations) is prepare.ts, run as a child process.
import { launch } from '@app/platform/launcher';

type AppName = 'api' | 'worker';
void launch(process.argv[2] ? [process.argv[2] as AppName] : ['api', 'worker']);
