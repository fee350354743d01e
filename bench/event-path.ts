// `npm run bench:event-path`: which of our files the code of one event passes through, from the HTTP
// post to the webhook receiver (docs/architecture.md#the-path-of-one-event-from-http-to-a-webhook-receiver).
// The api and the worker run in this process on a fresh database; V8's precise coverage counts the calls of
// every function.
// After a warm-up event, five rounds each run a window from a post to its delivery's arrival (the counts
// are taken by the receiver as the post arrives: what the worker does after, settling and health, is not
// the path), then a quiet window as long with nothing posted; a file is on the path when some function of it was called
// in every post's window, and more often in those than in the quiet ones (the relay's poll and the
// other timers cancel out).
import 'reflect-metadata';
import { Session } from 'node:inspector';
import { relative } from 'node:path';
import { ROOT } from './support';
import { receiver } from '../test/support/receiver';
import { startApp } from '../test/harness';

type Counts = Map<string, number>;

/** Events measured, each in its own window, each followed by a quiet window as long. */
const ROUNDS = 5;

/** The calls since the last take, by function (an in-process session answers at once, so this is synchronous). */
function counts(session: Session): Counts {
  let result: Array<{
    url: string;
    functions: Array<{ functionName: string; ranges: Array<{ startOffset: number; count: number }> }>;
  }> = [];
  session.post('Profiler.takePreciseCoverage', (error, answer) => {
    if (error) throw error;
    result = answer.result;
  });
  const found: Counts = new Map();
  for (const script of result) {
    if (!script.url.includes(`${ROOT}/libs/`) && !script.url.includes(`${ROOT}/apps/`)) continue;
    const file = relative(ROOT, script.url.replace(/^file:\/\//, ''));
    for (const fn of script.functions)
      found.set(`${file}\t${fn.functionName}\t${fn.ranges[0].startOffset}`, fn.ranges[0].count);
  }
  return found;
}

async function main(): Promise<void> {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  const busy: Counts[] = [];
  const inbox = await receiver(() => {
    busy.push(counts(session)); // as the post arrives
    return 200;
  });
  const t = await startApp({ worker: true, env: { LOG_LEVEL: 'warn', NODE_ENV: 'development' } });
  try {
    const ws = await t.workspace();
    const made = await t.gql(
      `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }`,
      { input: { url: `${inbox.url}/hook`, triggers: ['event'] } },
      ws.secretKey,
    );
    if (made.errors) throw new Error(JSON.stringify(made.errors));
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const deliver = async (n: number) => {
      counts(session); // resets the counts
      const started = Date.now();
      const answer = await t.request('POST', '/api/v1/events', {
        key: ws.secretKey,
        body: { type: 'signup', email: `path${n}@example.com` },
      });
      if (answer.status !== 200) throw new Error(`post answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      while (inbox.received.length < n) await sleep(1);
      return inbox.received[n - 1].at - started;
    };
    await deliver(1); // warm-up: lazy start-up work is not the path
    busy.length = 0;
    const quiet: Counts[] = [];
    const windows: number[] = [];
    for (let n = 2; n < 2 + ROUNDS; n++) {
      windows.push(await deliver(n));
      await sleep(200); // the worker settles the delivery
      counts(session);
      await sleep(windows[windows.length - 1]);
      quiet.push(counts(session));
    }
    const total = (all: Counts[], key: string) => all.reduce((sum, c) => sum + (c.get(key) ?? 0), 0);
    const files = new Map<string, string[]>();
    for (const key of busy[0].keys()) {
      const [file, name] = key.split('\t');
      // swc's export accessors (`get name`, and an index's `get`) run where a module's export is read: not the file's code.
      if (name === 'get' || name.startsWith('get ')) continue;
      // On the path: called for every event, and more often than in as many quiet windows (timers cancel out).
      if (!busy.every((c) => (c.get(key) ?? 0) > 0) || total(busy, key) <= total(quiet, key)) continue;
      files.set(file, [...(files.get(file) ?? []), name || '(anonymous)']);
    }
    const windowMs = windows.sort((x, y) => x - y)[Math.floor(windows.length / 2)];
    console.log(
      `One event, post to delivery in ${windowMs} ms (median of ${ROUNDS}), passes through ${files.size} files:`,
    );
    for (const [file, names] of [...files].sort())
      console.log(`${file}  ${[...new Set(names)].slice(0, 6).join(', ')}`);
    session.disconnect();
  } finally {
    await t.close();
    await inbox.close();
  }
}

void main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
