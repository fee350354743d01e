import Redis, { Cluster, ClusterOptions, RedisOptions } from 'ioredis';
import type { AppConfig } from '../config/config';
import { Outage, REDIS_OUTAGE } from '../runtime/outage';

export const REDIS = Symbol('REDIS');

/**
 * One Redis, or a Redis Cluster when REDIS_CLUSTER_NODES is set: every command Lifeline sends works on both.
 */
export type RedisClient = Redis | Cluster;

/** Where Redis is: REDIS_URL, or the cluster's nodes with REDIS_URL's user, password and TLS. */
export type RedisSettings = Pick<AppConfig, 'redisUrl' | 'redisClusterNodes'>;

/** Options that a Cluster takes for itself rather than for each node's connection. */
const CLUSTER_LEVEL = ['enableOfflineQueue', 'enableAutoPipelining', 'lazyConnect'] as const;

/**
 * The one builder of Redis clients: `options` are those of one connection; for a cluster they apply to
 * each node's connection, except the few a Cluster takes itself (its offline queue, pipelining, lazy
 * start), and `cluster` adds Cluster-only ones.
 */
export function connectRedis(
  settings: RedisSettings,
  options: RedisOptions = {},
  cluster: ClusterOptions = {},
): RedisClient {
  if (!settings.redisClusterNodes) return new Redis(settings.redisUrl, options);
  const own: ClusterOptions = {};
  const perNode: RedisOptions = { ...credentials(settings.redisUrl) };
  for (const [name, value] of Object.entries(options)) {
    if ((CLUSTER_LEVEL as readonly string[]).includes(name)) Object.assign(own, { [name]: value });
    else Object.assign(perNode, { [name]: value });
  }
  return endsWhenDisconnected(new Cluster(settings.redisClusterNodes, { ...own, ...cluster, redisOptions: perNode }));
}

/**
 * A Cluster client that ends when disconnected while it waits to reconnect. ioredis (5.11) ends one
 * disconnected before it connected, but one waiting to reconnect has no node left to close, so no 'end'
 * ever comes: BullMQ, which closes a worker's blocking client and waits for its 'end', then never closed
 * the worker, and the process never stopped (seen after a failover). Here it ends as ioredis ends the other.
 */
export function endsWhenDisconnected(cluster: Cluster): Cluster {
  const disconnect = cluster.disconnect.bind(cluster);
  cluster.disconnect = (reconnect = false) => {
    const waiting = cluster.status === 'reconnecting';
    disconnect(reconnect);
    // Private in its types: what ioredis's own disconnect does for a client that never connected.
    const internals = cluster as unknown as { setStatus(status: string): void; handleCloseEvent(): void };
    if (waiting && !reconnect) {
      internals.setStatus('close');
      internals.handleCloseEvent();
    }
  };
  return cluster;
}

/**
 * A client that fails fast while Redis is down, so a request never waits on it: no offline queue, and
 * no command waits longer than redisCommandTimeoutMs for its answer, as from a frozen Redis.
 */
export function createRedis(
  settings: RedisSettings & Pick<AppConfig, 'redisCommandTimeoutMs'>,
  options: RedisOptions = {},
): RedisClient {
  const client = connectRedis(settings, {
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
    commandTimeout: settings.redisCommandTimeoutMs,
    ...options,
  });
  reportOutages(client, redisWhere(settings));
  return client;
}

/**
 * One line when Redis goes away and one when it is back (with the requests refused meanwhile), instead
 * of ioredis's error at every retry.
 */
export function reportOutages(client: RedisClient, where: string, outage: Outage = REDIS_OUTAGE): void {
  client.on('error', (error: Error) => outage.begin(`${where}: ${error.message}`));
  client.on('reconnecting', () => outage.begin(`${where}: the connection was lost`));
  client.on('ready', () => outage.end());
}

/**
 * BullMQ wants connections that retry for ever, and no command timeout: its workers' blocking reads
 * (BZPOPMIN and the like) wait on purpose (https://docs.bullmq.io/guide/going-to-production). Putting
 * jobs on a queue is bounded where it is done (enqueueWithin).
 */
export function bullConnection(url: string): RedisOptions {
  const parsed = new URL(url);
  return {
    ...credentials(url),
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
    maxRetriesPerRequest: null,
  };
}

/**
 * The connection of one queue: for one Redis, options (the queue, its worker and its listeners each
 * connect); for a cluster, a Cluster client of its own, as BullMQ builds none itself. BullMQ shares it
 * between the queue and its worker, duplicates it for blocking reads and never closes it:
 * QueueConnections does, after the queues.
 */
export function queueConnection(settings: RedisSettings): RedisOptions | Cluster {
  if (!settings.redisClusterNodes) return bullConnection(settings.redisUrl);
  return connectRedis(settings, { lazyConnect: true, maxRetriesPerRequest: null }) as Cluster;
}

/**
 * The prefix of a queue's keys. On a cluster a hash tag of its own (`{lifeline:webhooks}`): each of
 * BullMQ's scripts touches several keys of one queue, which must share a slot, and distinct tags spread
 * the queues over the masters. For one Redis, REDIS_PREFIX as always, so no key moves.
 */
export function queuePrefix(config: Pick<AppConfig, 'redisPrefix' | 'redisClusterNodes'>, queue: string): string {
  return config.redisClusterNodes ? `{${config.redisPrefix}:${queue}}` : config.redisPrefix;
}

/** Where Redis is, for messages: host:port, or the cluster's nodes. */
export function redisWhere(settings: RedisSettings): string {
  if (settings.redisClusterNodes)
    return `Redis Cluster at ${settings.redisClusterNodes.map((n) => `${n.host}:${n.port}`).join(',')}`;
  const parsed = new URL(settings.redisUrl);
  return `${parsed.hostname}:${parsed.port || 6379}`;
}

/** REDIS_URL's user, password and TLS: a cluster's nodes take them too. */
function credentials(url: string): RedisOptions {
  const parsed = new URL(url);
  return {
    username: parsed.username || undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
  };
}
