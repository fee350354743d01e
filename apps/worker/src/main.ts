// The worker process: BullMQ processors, the outbox relay and the sweeps. On SIGTERM/SIGINT
// in-flight jobs finish (BullMQ's close waits for them) before the process exits.
import 'reflect-metadata';
import { ConfigError, loadConfig, warnAboutTestOnlySettings } from '@app/core';
import { createWorker } from './bootstrap';

async function main() {
  const config = loadConfig(process.env);
  warnAboutTestOnlySettings(config);
  await createWorker(config);
  console.log('worker started');
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
