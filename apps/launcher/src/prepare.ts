// The launcher's preparation, a child process of apps/launcher/src/main.ts: resolves the database and
// Redis, checks the settings and runs every lib's migrations once, then hands the apps' environment to
// the launcher (libs/platform/src/runtime/prepare.ts).
import { prepareForLaunch } from '@app/platform/prepare';
import { MIGRATIONS } from '@app/schema';

prepareForLaunch(MIGRATIONS);
