// The README's five-minute tour runs as a newcomer would run it. The service is
// started the way the tour says (`npm start` is `node scripts/start.js`, with the tour's variables) on
// a database of its own, the demo secret key is read from the box it prints, and each shell block of
// the tour runs with bash, in order, and must exit 0 and print what the README shows under it.
// Blocks are found by the comment above them: `tour` runs; `tour: receiver` runs in the background
// (another terminal) until the post it waits for arrives; `tour: once the receiver printed` runs after
// that, given the moment a reader takes to look (the worker records the attempt right after the post).
import { freePort, portAnswers } from '@app/platform';
import { dropDatabase, eventually, testDatabaseName } from './harness';
import { PG_ROOT } from './support/template';
import { Running, run } from './support/processes';
import {
  Block,
  blocksOf,
  expectedOutput,
  missingOutput,
  readDoc,
  ROOT,
  runShell,
  shortfall,
} from './support/shell-examples';

const readme = blocksOf('README.md');
const tour = readme.filter((b) => b.marker?.startsWith('tour'));
const only = (marker: string) => {
  const found = tour.filter((b) => b.marker === marker);
  if (found.length !== 1) throw new Error(`README.md has ${found.length} blocks marked <!-- ${marker} -->, not one`);
  return found[0];
};
const start = only('tour: start');
const environment = only('tour: environment');
const receiverBlock = only('tour: receiver');
const steps = tour.filter((b) => [receiverBlock.marker, 'tour', 'tour: once the receiver printed'].includes(b.marker));

/** `NAME=value` words before `npm start` in the tour's start block. */
const startVariables = (): Record<string, string> =>
  Object.fromEntries(
    start.code
      .trim()
      .split(/\s+/)
      .filter((w) => w.includes('='))
      .map((w) => w.split('=') as [string, string]),
  );
const exported = () => [...environment.code.matchAll(/^export (\w+)=/gm)].map((m) => m[1]);
/** The port of the tour's receiver, read from its own code. */
const receiverPort = () => Number(/\.listen\((\d+)/.exec(receiverBlock.code)![1]);

it('the README opens with the two commands: npm ci && npm start, and npm test', () => {
  expect(readme[0].code).toMatch(/^npm ci && npm start +# runs the service/m);
  expect(readme[0].code).toMatch(/^npm test +# runs every test/m);
});

it('the tour starts the service as npm start does, adding only variables', () => {
  expect(start.code.trim()).toMatch(/^([A-Z_]+=\S+ )+npm start$/);
  expect(JSON.parse(readDoc('package.json')).scripts.start).toBe('node scripts/start.js');
});

it('the tour tells the reader to set every variable its commands use', () => {
  const used = new Set(steps.flatMap((b) => [...b.code.matchAll(/\$([A-Z_]+)/g)].map((m) => m[1])));
  expect(exported().sort()).toEqual([...used].sort());
});

/** The service as the tour starts it, on a database and Redis prefix of its own. */
async function startService(database: string, port: number): Promise<Running> {
  const service = run(process.execPath, ['scripts/start.js'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: `${PG_ROOT}/${database}`,
      REDIS_PREFIX: `lt:${database}`,
      PORT: String(port),
      APP_SECRET: 'readme-tour-secret-0123456789-abcdef',
      LOG_LEVEL: 'warn',
      ...startVariables(),
    },
  });
  await service.waitFor(/secret key: +sk_live_\w+/, 60_000);
  await service.waitFor(/^worker started/m, 30_000);
  return service;
}

/** Each address of the README on the local service (http://localhost:3000/…) answers there. */
async function readmeAddressesAnswer(port: number): Promise<string[]> {
  const found = readDoc('README.md').match(/http:\/\/localhost:3000\/[^\s)`'"]*/g) ?? [];
  // A sentence's full stop or comma after an address is no part of it.
  const addresses = [...new Set(found.map((a) => a.replace(/[.,;:]+$/, '')))].filter((a) => !a.includes('…'));
  const wrong: string[] = [];
  for (const address of addresses) {
    const answer = await fetch(address.replace('localhost:3000', `127.0.0.1:${port}`), {
      headers: { accept: 'text/html' },
    });
    if (answer.status === 404 || answer.status >= 500) wrong.push(`${address}: ${answer.status}`);
  }
  return wrong;
}

async function runStep(step: Block, env: Record<string, string>, receiver: Running | null): Promise<void> {
  if (step.marker !== 'tour: once the receiver printed') {
    expect(shortfall(step, await runShell(step.code, env))).toBeNull();
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  const exit = await Promise.race([
    receiver!.exited,
    new Promise((r) => (timer = setTimeout(() => r('no post within 10 s'), 10_000))),
  ]);
  clearTimeout(timer);
  expect(exit).toEqual({ code: 0, signal: null });
  expect(missingOutput(receiver!.output(), expectedOutput(receiverBlock.code))).toBeNull();
  await eventually(async () => shortfall(step, await runShell(step.code, env)) === null, 5_000, 100).catch(async () => {
    expect(shortfall(step, await runShell(step.code, env))).toBeNull();
  });
}

it('runs from the first post to the tool door, each command printing what the README shows', async () => {
  expect(`port ${receiverPort()} free for the tour's receiver: ${!(await portAnswers(receiverPort()))}`).toBe(
    `port ${receiverPort()} free for the tour's receiver: true`,
  );
  const database = testDatabaseName();
  const port = await freePort();
  const service = await startService(database, port);
  let receiver: Running | null = null;
  try {
    const env = {
      LIFELINE_URL: `http://localhost:${port}`,
      SECRET_KEY: /secret key: +(sk_live_\w+)/.exec(service.output())![1],
    };
    expect(Object.keys(env).sort()).toEqual(exported().sort());
    for (const step of steps) {
      if (step === receiverBlock) {
        receiver = run('bash', ['-c', step.code], { cwd: ROOT, env: { ...process.env, ...env } });
        await receiver.waitFor(expectedOutput(step.code)[0], 10_000);
      } else {
        await runStep(step, env, receiver);
      }
    }
    expect(await readmeAddressesAnswer(port)).toEqual([]);
  } finally {
    if (receiver?.child.exitCode === null) receiver.child.kill('SIGKILL');
    service.child.kill('SIGINT');
    await service.exited;
    await dropDatabase(database);
  }
}, 90_000);
