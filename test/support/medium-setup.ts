// jest globalSetup of the medium tier (jest.config.js): only the migrated template database its files
// clone (test/support/template.ts); the console and the browser are the e2e tier's (global-setup.ts).
import { buildTemplate } from './global-setup';

export default function mediumSetup(): Promise<void> {
  return buildTemplate();
}
