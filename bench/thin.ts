// Starts the thin service (bench/thin-server.ts) as its own process on a fresh database of its own.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from '@app/platform';
import { THIN_TABLE } from './thin-server';
import { benchDatabase, dropDatabase, ROOT, Service, sleep } from './support';

export const THIN_DATABASE = benchDatabase('lifeline_bench_thin');

export async function startThin(): Promise<Service> {
  const databaseUrl = await dropDatabase(THIN_DATABASE, true);
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(THIN_TABLE);
  await db.end();
  const port = await freePort();
  const child = spawn(process.execPath, ['-r', '@swc-node/register', join(ROOT, 'bench/thin-server.ts')], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await sleep(100);
  }
  return {
    url,
    urls: [url],
    databaseUrl,
    pids: { api: child.pid },
    apiPids: [child.pid!],
    stop: () =>
      new Promise((r) => (child.exitCode !== null ? r() : (child.once('exit', () => r()), child.kill('SIGTERM')))),
  };
}
