// The embedded defaults of docs/operations.md#development-npm-start: PGlite when no PostgreSQL answers,
// a redis-server from PATH when no Redis answers. Only used when DATABASE_URL / REDIS_URL are unset.
import { spawn, ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { ConfigError } from '../config/config';

export interface Resolved {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

type Log = (line: string) => void;

export const REDIS_FIXES =
  'No Redis answers on 127.0.0.1:6379 and no redis-server is on PATH: install Redis (apt-get install redis-server), ' +
  'set REDIS_URL to a running Redis, or run `docker compose up -d`.';

/** True when something accepts TCP connections on host:port within the timeout. */
export function portAnswers(port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * A port nothing listens on, for a server started a moment later (embedded Redis or PGlite, a test's
 * child process). It is drawn from 20000-32767, below Linux's ephemeral range (32768-60999), so an
 * outgoing connection cannot take it between this check and the listen; port 0 would hand out an
 * ephemeral one that any connection made meanwhile may take.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20000 + (randomBytes(2).readUInt16BE() % 12768);
    if (await listensOn(port)) return port;
  }
  return listensOn(0);
}

function listensOn(port: number): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(0));
    server.listen(port, '0.0.0.0', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(bound));
    });
  });
}

const nothing = async () => undefined;

/** Where a running `npm start` on embedded PGlite writes its address, for the CLI. */
export const PG_URL_FILE = 'pg.url';

/**
 * The database the CLI should use: DATABASE_URL; else the address a running `npm start` on embedded
 * PGlite wrote down. An address nobody answers on any more is stale (that run ended without removing
 * it): it is removed, and when no PostgreSQL answers either the caller is told what to do.
 */
export async function commandDatabaseUrl(
  env: Record<string, string | undefined>,
  dataDir: string,
  probe = { port: 5432 },
): Promise<string | undefined> {
  if (env.DATABASE_URL) return env.DATABASE_URL;
  const file = join(dataDir, PG_URL_FILE);
  if (!existsSync(file)) return undefined;
  const url = readFileSync(file, 'utf8').trim();
  if (await portAnswers(Number(new URL(url).port))) return url;
  rmSync(file, { force: true });
  if (await portAnswers(probe.port)) return undefined;
  throw new ConfigError(
    `The embedded database of an earlier \`npm start\` (${url}) no longer runs and nothing answers on ` +
      `127.0.0.1:${probe.port}: ` +
      'start the service with `npm start` first (its data is in .data/pg), or set DATABASE_URL.',
  );
}

export async function resolveDatabase(
  env: Record<string, string | undefined>,
  dataDir: string,
  log: Log,
  probe: { port: number } = { port: 5432 },
): Promise<Resolved> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, embedded: false, stop: nothing };
  if (await portAnswers(probe.port)) {
    return { url: `postgres://postgres@127.0.0.1:${probe.port}/lifeline`, embedded: false, stop: nothing };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const dir = join(dataDir, 'pg');
  mkdirSync(dir, { recursive: true });
  // pg_trgm backs people search's indexes (migration PeopleSearch1766800000000); PGlite loads contrib on
  // request. The subpath has types only under node16 module resolution, hence the cast.
  const { pg_trgm } = (await import('@electric-sql/pglite/contrib/pg_trgm' as string)) as {
    pg_trgm: import('@electric-sql/pglite').Extension;
  };
  const db = await PGlite.create(dir, { extensions: { pg_trgm } });
  const port = await freePort();
  // PGlite is one connection; the socket server multiplexes the api, the worker and the CLI onto it.
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 16 });
  await server.start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  writeFileSync(join(dataDir, PG_URL_FILE), url);
  log(
    `No PostgreSQL answers on 127.0.0.1:${probe.port} and DATABASE_URL is unset: using embedded PGlite in ` +
      `${dir} (one connection).`,
  );
  return {
    url,
    embedded: true,
    stop: async () => {
      rmSync(join(dataDir, PG_URL_FILE), { force: true });
      await server.stop();
      await db.close();
    },
  };
}

function findOnPath(binary: string, pathVar: string | undefined): string | null {
  for (const dir of (pathVar ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, binary))) return join(dir, binary);
  }
  return null;
}

export async function resolveRedis(
  env: Record<string, string | undefined>,
  dataDir: string,
  log: Log,
  probe: { port: number } = { port: 6379 },
): Promise<Resolved> {
  if (env.REDIS_URL) return { url: env.REDIS_URL, embedded: false, stop: nothing };
  // A Redis Cluster is never embedded: its nodes are the operator's (REDIS_URL then only lends them credentials).
  if (env.REDIS_CLUSTER_NODES) return { url: 'redis://127.0.0.1:6379', embedded: false, stop: nothing };
  if (await portAnswers(probe.port)) return { url: `redis://127.0.0.1:${probe.port}`, embedded: false, stop: nothing };
  const binary = findOnPath('redis-server', env.PATH);
  if (!binary) throw new ConfigError(REDIS_FIXES);
  const dir = join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const child: ChildProcess = spawn(
    binary,
    ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', '60 1', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  for (let i = 0; i < 100 && !(await portAnswers(port)); i++) await new Promise((r) => setTimeout(r, 50));
  if (!(await portAnswers(port))) {
    child.kill();
    throw new ConfigError(`redis-server from ${binary} did not start. ${REDIS_FIXES}`);
  }
  log(
    `No Redis answers on 127.0.0.1:${probe.port} and REDIS_URL is unset: started ${binary} on port ${port} ` +
      `with its data in ${dir}.`,
  );
  return {
    url: `redis://127.0.0.1:${port}`,
    embedded: true,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Outside production APP_SECRET may be unset: one is generated once and kept in .data/app-secret. */
export function developmentAppSecret(dataDir: string): string {
  const file = join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(36).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
