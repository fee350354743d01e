// The whole deployment on hosts of its own (docs/operations.md#across-hosts): a load balancer, 2 apis
// and 2 workers (each with its local route to the PostgreSQL primary), the pg_auto_failover monitor and
// its two data nodes, three Redis hosts carrying a six-node cluster; the webhook receiver and the SMTP
// server listen on the clients' host, the bridge's own address. Everything runs from dist/ as in
// production (scripts/run.js compiles what changed first).
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, Running, waitForHealth } from '../support/processes';
import { receiver } from '../support/receiver';
import { Mail, smtpServer } from '../support/smtp';
import { BALANCER_PORT, LOCAL_POSTGRES_PORT, Proxy, routeReady, startBalancer, startPostgresRoute } from './haproxy';
import { CLIENTS_ADDRESS, createBridge, createHost, hasNetem, Host, removeNetwork } from './network';
import { apt, DATABASE, Failover, startFailover } from './postgres';
import { ClusterHosts, startClusterHosts } from './redis';

const ROOT = join(__dirname, '..', '..');
export const ADMIN_TOKEN = 'hosts-admin-token-0123456789';
export const API_PORT = 3000;
/** The deployment's server_posts figure: the load is not limited; the checker's rate-limit workspace sets its own. */
export const SERVER_POSTS = 1_000_000;

export interface App {
  kind: 'api' | 'worker';
  host: Host;
  process: Running;
  route: Proxy;
}

export interface Topology {
  balancerUrl: string;
  apps: App[];
  apis: App[];
  workers: App[];
  postgres: Failover;
  redis: ClusterHosts;
  /** Every host whose link a fault may touch. */
  hosts: Host[];
  received: Awaited<ReturnType<typeof receiver>>;
  mails: Mail[];
  env: Record<string, string>;
  /** Starts an app again (after a kill) on its host, with its route. */
  restart(app: App): Promise<void>;
  stop(): Promise<void>;
}

/**
 * How the apps reach the primary: HOSTS_POSTGRES_ROUTE=haproxy (the default), their local HAProxy; =hosts,
 * both nodes in DATABASE_URL with target_session_attrs=read-write, the service choosing (docs/configuration.md).
 */
function databaseUrl(postgres: Failover): string {
  if (process.env.HOSTS_POSTGRES_ROUTE !== 'hosts')
    return `postgres://postgres@127.0.0.1:${LOCAL_POSTGRES_PORT}/${DATABASE}`;
  const hosts = postgres.nodes.map((n) => `${n.host.address}:${n.port}`).join(',');
  return `postgres://postgres@${hosts}/${DATABASE}?target_session_attrs=read-write`;
}

export async function startTopology(): Promise<Topology> {
  if (process.getuid?.() !== 0) throw new Error('npm run test:hosts makes network namespaces: run it as root.');
  apt(['iproute2'], 'tc');
  apt(['haproxy'], 'haproxy');
  apt(['iptables'], 'iptables');
  apt(['redis-server'], 'redis-server');
  if (!hasNetem()) apt(['python3'], 'python3'); // delay.py in netem's stead
  const dir = mkdtempSync(join(tmpdir(), 'lifeline-hosts-'));
  chmodSync(dir, 0o755); // PostgreSQL's programs run as the postgres user below it
  createBridge();
  const balancer = createHost('lb', 5);
  const apiHosts = [createHost('api1', 21), createHost('api2', 22)];
  const workerHosts = [createHost('worker1', 31), createHost('worker2', 32)];
  const monitor = createHost('monitor', 40);
  const pgHosts = [createHost('pg1', 41), createHost('pg2', 42)];
  const redisHosts = [createHost('redis1', 51), createHost('redis2', 52), createHost('redis3', 53)];

  const [postgres, redis] = await Promise.all([
    startFailover(join(dir, 'postgres'), monitor, pgHosts),
    startClusterHosts(dir, redisHosts),
  ]);
  const received = await receiver(() => 200, CLIENTS_ADDRESS);
  const mails: Mail[] = [];
  const smtp = await smtpServer(mails, CLIENTS_ADDRESS);
  const balancerUrl = `http://${balancer.address}:${BALANCER_PORT}`;
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    APP_SECRET: 'hosts-app-secret-0123456789-0123456789',
    ADMIN_TOKEN,
    DATABASE_URL: databaseUrl(postgres),
    REDIS_CLUSTER_NODES: redis.nodes,
    REDIS_PREFIX: 'lh',
    SMTP_URL: smtp.url,
    EMAIL_FROM: 'Lifeline <no-reply@hosts.test>',
    RATE_LIMIT_SERVER_POSTS: String(SERVER_POSTS),
    UNSAFE_ALLOW_PRIVATE_TARGETS: 'true',
    LOG_LEVEL: 'warn',
    PORT: String(API_PORT),
    BASE_URL: balancerUrl,
  };
  require(join(ROOT, 'scripts/build')).build({ changed: true });

  const launch = (kind: App['kind'], host: Host) =>
    run(host.exec[0], [...host.exec.slice(1), process.execPath, 'scripts/run.js', `apps/${kind}/src/main`], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
  const routes = new Map<string, Proxy>();
  for (const host of [...apiHosts, ...workerHosts])
    routes.set(host.name, startPostgresRoute(host, dir, postgres.nodes));
  await Promise.all([...apiHosts, ...workerHosts].map(routeReady));
  const migrate = run(
    apiHosts[0].exec[0],
    [...apiHosts[0].exec.slice(1), process.execPath, 'scripts/run.js', 'apps/api/src/migrate'],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
    },
  );
  const migrated = await migrate.exited;
  if (migrated.code !== 0) throw new Error(`migrations failed:\n${migrate.output()}`);

  const apps: App[] = [
    ...apiHosts.map((host) => ({
      kind: 'api' as const,
      host,
      process: launch('api', host),
      route: routes.get(host.name)!,
    })),
    ...workerHosts.map((host) => ({
      kind: 'worker' as const,
      host,
      process: launch('worker', host),
      route: routes.get(host.name)!,
    })),
  ];
  const ready = (app: App) => app.process.waitFor(app.kind === 'api' ? 'api listening' : 'worker started', 120_000);
  await Promise.all(apps.map(ready));
  const lb = startBalancer(
    balancer,
    dir,
    apiHosts.map((host) => ({ host, port: API_PORT })),
  );
  await waitForHealth(`${balancerUrl}/health/ready`, 30_000);

  return {
    balancerUrl,
    apps,
    apis: apps.filter((a) => a.kind === 'api'),
    workers: apps.filter((a) => a.kind === 'worker'),
    postgres,
    redis,
    hosts: [balancer, ...apiHosts, ...workerHosts, monitor, ...pgHosts, ...redisHosts],
    received,
    mails,
    env,
    async restart(app) {
      app.process = launch(app.kind, app.host);
      await ready(app);
    },
    async stop() {
      for (const app of apps) app.process.child.kill('SIGCONT');
      for (const app of apps) app.process.child.kill('SIGKILL');
      for (const route of routes.values()) route.stop();
      lb.stop();
      redis.stop();
      await postgres.stop();
      await received.close();
      await smtp.close();
      removeNetwork();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
