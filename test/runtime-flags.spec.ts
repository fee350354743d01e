// The api and the worker run with the same Node flags (NODE_FLAGS) whichever way they are started:
// the launcher (npm start, npm run start:prod), the start:prod:api and start:prod:worker scripts, and the
// image (its NODE_OPTIONS, for whatever command compose gives it). test/process-tree.e2e-spec.ts checks
// the launcher's children.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NODE_FLAGS } from '@app/platform/launcher';

const root = join(__dirname, '..');

it('the start:prod scripts and the image carry the launcher flags', () => {
  const scripts: Record<string, string> = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
  for (const app of ['api', 'worker'])
    expect(scripts[`start:prod:${app}`]).toBe(`node ${NODE_FLAGS.join(' ')} dist/apps/${app}/src/main.js`);
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  expect(finalStage).toContain(`ENV NODE_OPTIONS=${NODE_FLAGS.join(' ')}\n`);
});
