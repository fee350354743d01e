// The worker process: BullMQ processors, the outbox relay and the sweeps. On SIGTERM/SIGINT in-flight
// jobs finish (BullMQ's close waits for them) before the process exits (start-process.ts).
import 'reflect-metadata';
import { startProcess } from '@app/platform';
import { MIGRATIONS } from '@app/schema';
import { createWorker } from './bootstrap';

startProcess('worker', MIGRATIONS, async (config) => {
  const app = await createWorker(config);
  console.log('worker started');
  return { stop: () => app.close() };
});
