// End-to-end harness: each test file gets its own database (a clone of the migrated template, see
// support/template.ts) and Redis prefix, the real api listening on a free port, and (when asked) the
// real worker in the same process.
import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig, freePort, loadConfig, randomBase62 } from '@app/platform';
import { CreatedWorkspace, WorkspacesService } from '@app/workspaces';
import { createApi } from '../apps/api/src/bootstrap';
import { createWorker } from '../apps/worker/src/bootstrap';
import { Factories } from './factories';
import { cloneTemplate, PG_ROOT } from './support/template';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestApp {
  url: string;
  config: AppConfig;
  app: INestApplication;
  worker: INestApplicationContext | null;
  db: DataSource;
  /** Rows for set-up, written straight in this app's database. */
  make: Factories;
  close(): Promise<void>;
  workspace(input?: WorkspaceInput): Promise<CreatedWorkspace>;
  request<T = any>(
    method: string,
    path: string,
    options?: { key?: string; body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<Answer<T>>;
  gql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
    key?: string,
  ): Promise<{ data: T; errors?: Array<{ message: string; extensions: { code: string } }> }>;
}

export type WorkspaceInput = { origins?: string[]; web?: boolean };
type Env = Record<string, string>;

export function testDatabaseName(): string {
  return `lifeline_test_${process.env.JEST_WORKER_ID ?? '0'}_${randomBase62(10).toLowerCase()}`;
}

export async function dropDatabase(name: string): Promise<void> {
  const client = new Client({ connectionString: `${PG_ROOT}/postgres` });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
  await client.end();
}

/** The config of a database not made yet (tests of migrating make it); startApp clones it from the template. */
export async function testConfig(env: Record<string, string> = {}): Promise<{ config: AppConfig; database: string }> {
  const database = testDatabaseName();
  const port = await freePort();
  const config = loadConfig({
    NODE_ENV: 'test',
    APP_SECRET: 'test-app-secret-0123456789-0123456789',
    ADMIN_TOKEN,
    DATABASE_URL: `${PG_ROOT}/${database}`,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `lt:${database}`,
    // The suites rerun on a Redis Cluster (test/*-on-cluster.e2e-spec.ts); a test naming a Redis of its own keeps it.
    ...(process.env.REDIS_CLUSTER_NODES && !env.REDIS_URL
      ? { REDIS_CLUSTER_NODES: process.env.REDIS_CLUSTER_NODES }
      : {}),
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    UNSAFE_ALLOW_PRIVATE_TARGETS: 'true',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    ...env,
  });
  return { config, database };
}

export async function startApp(options: { env?: Record<string, string>; worker?: boolean } = {}): Promise<TestApp> {
  const { config, database } = await testConfig(options.env);
  await cloneTemplate(database);
  const app = await createApi(config);
  await app.listen(config.port, '127.0.0.1');
  const worker = options.worker ? await createWorker(config) : null;
  const db = app.get(DataSource);
  const url = config.baseUrl;

  const request: TestApp['request'] = async (method, path, { key, body, raw, headers = {} } = {}) => {
    const response = await fetch(url + path, {
      method,
      headers: {
        ...(body !== undefined || raw !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...headers,
      },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as any, headers: response.headers };
  };

  return {
    url,
    config,
    app,
    worker,
    db,
    make: new Factories(db, (type) => app.get(type, { strict: false })),
    request,
    async gql(query, variables = {}, key = ADMIN_TOKEN) {
      const answer = await request('POST', '/graphql', { key, body: { query, variables } });
      return answer.body;
    },
    workspace(input = {}) {
      return app
        .get(WorkspacesService)
        .create({ slug: `ws-${randomBase62(8).toLowerCase()}`, owner: 'owner@example.com', ...input });
    },
    async close() {
      await worker?.close();
      await app.close();
      await dropDatabase(database);
    },
  };
}

/**
 * The app of a test file (or of a describe block): started before its tests, closed after them. The
 * handle is filled in beforeAll, so helpers beside it may close over it. env may be a function when it
 * names something an earlier beforeAll starts (an SMTP server, a stand-in API). closeTimeoutMs: how long
 * closing may take (jest's default otherwise). stopWaitingMs: past it, the close is left running and the
 * file ends, as the launcher's stop deadline ends a process that outlasts it in production (STOP_WITHIN_MS).
 */
export function useApp(
  options: { env?: Env | (() => Env); worker?: boolean; closeTimeoutMs?: number; stopWaitingMs?: number } = {},
): TestApp {
  const handle = {} as TestApp;
  beforeAll(async () => {
    const env = typeof options.env === 'function' ? options.env() : options.env;
    Object.assign(handle, await startApp({ worker: options.worker, env }));
  });
  afterAll(async () => {
    // A close that outlasts a minute says what still holds the process (the hooks not done, the workers'
    // state, the sockets), for the next look: redis-cluster's close after its failover has passed two
    // minutes on a loaded CI machine, waiting in BullMQ's worker close.
    const pending = traceShutdown([handle.worker, handle.app]);
    const held = () => `hooks not done: ${pending()}; still open: ${openHandles()}`;
    const slow = setTimeout(() => console.error(`closing the app takes over 60 s; ${held()}`), 60_000).unref();
    let stop: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      if (options.stopWaitingMs === undefined) return;
      stop = setTimeout(() => {
        console.error(`closing the app outlasted ${options.stopWaitingMs! / 1000} s: left running; ${held()}`);
        resolve();
      }, options.stopWaitingMs).unref();
    });
    try {
      await Promise.race([handle.close?.(), deadline]);
    } finally {
      clearTimeout(slow);
      clearTimeout(stop);
    }
  }, options.closeTimeoutMs);
  return handle;
}

const SHUTDOWN_HOOKS = ['onModuleDestroy', 'beforeApplicationShutdown', 'onApplicationShutdown'] as const;

/** What a BullMQ worker (a processor's `worker`) is doing, for a close that hangs. */
function workerState(worker: any): string {
  const blocking = worker.blockingConnection;
  const state = [
    worker.closing ? 'closing' : '',
    worker.running ? 'running' : '',
    worker.mainLoopRunning ? 'loop' : '',
    worker.closed ? 'closed' : '',
  ];
  return `${worker.name}(${state.filter(Boolean).join(' ')}; blocking ${blocking?.status}/${blocking?._client?.status}; main ${worker.connection?.status}/${worker.connection?._client?.status})`;
}

/** Wraps every provider's shutdown hooks in the apps given, to tell which ones a slow close still waits on (and its workers' state). */
function traceShutdown(apps: Array<INestApplicationContext | null | undefined>): () => string {
  const running = new Set<string>();
  const workers: unknown[] = [];
  for (const app of apps) {
    for (const module of app?.get(ModulesContainer).values() ?? []) {
      for (const wrapper of module.providers.values()) {
        const instance = wrapper.instance as Record<string, unknown> | undefined;
        if (!instance || typeof instance !== 'object') continue;
        if (instance.worker && typeof (instance.worker as { close?: unknown }).close === 'function')
          workers.push(instance.worker);
        for (const hook of SHUTDOWN_HOOKS) {
          const original = instance[hook];
          if (typeof original !== 'function') continue;
          const name = `${instance.constructor.name}.${hook}`;
          instance[hook] = async (...args: unknown[]) => {
            running.add(name);
            try {
              return await original.apply(instance, args);
            } finally {
              running.delete(name);
            }
          };
        }
      }
    }
  }
  return () => `${[...running].join(', ') || 'none'}; workers: ${workers.map(workerState).join(', ')}`;
}

/** Node's open handles and requests by kind, with the address of each socket. */
function openHandles(): string {
  const proc = process as unknown as { _getActiveHandles(): object[]; _getActiveRequests(): object[] };
  const described = [...proc._getActiveHandles(), ...proc._getActiveRequests()].map((h) => {
    const socket = h as { remotePort?: number; remoteAddress?: string };
    return socket.remotePort
      ? `${h.constructor.name}(${socket.remoteAddress}:${socket.remotePort})`
      : h.constructor.name;
  });
  const counts = new Map<string, number>();
  for (const d of described) counts.set(d, (counts.get(d) ?? 0) + 1);
  return [...counts].map(([d, n]) => `${d} × ${n}`).join(', ');
}

/** A fresh workspace of t for every test ('each') or one for the whole file or block ('all'). */
export function useWorkspace(t: TestApp, input: WorkspaceInput = {}, per: 'each' | 'all' = 'each'): CreatedWorkspace {
  const handle = {} as CreatedWorkspace;
  (per === 'each' ? beforeEach : beforeAll)(async () => {
    Object.assign(handle, await t.workspace(input));
  });
  return handle;
}

/** A secret key of a member with the role given, made by the workspace's owner. */
export async function memberKey(
  t: TestApp,
  ws: CreatedWorkspace,
  email: string,
  role: 'member' | 'admin' | 'owner' = 'member',
) {
  if (role !== 'member')
    await t.gql(`mutation { addMember(email: "${email}", role: "${role}") { id } }`, {}, ws.secretKey);
  const made = await t.gql(`mutation { createKey(member: "${email}") { keyId secretKey } }`, {}, ws.secretKey);
  if (made.errors) throw new Error(JSON.stringify(made.errors));
  return made.data.createKey as { keyId: string; secretKey: string };
}

/** Polls until check returns a truthy value (for work the worker does in the background). */
export async function eventually<T>(
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 10_000,
  everyMs = 50,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
}
