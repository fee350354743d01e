import Redis, { RedisOptions } from 'ioredis';
import { Outage, REDIS_OUTAGE } from '../runtime/outage';

export const REDIS = Symbol('REDIS');

/**
 * A client that fails fast while Redis is down, so a request never waits on it: no offline queue, and
 * (issue 33) no command waits longer than commandTimeoutMs for its answer, as from a frozen Redis.
 */
export function createRedis(url: string, options: RedisOptions = {}, commandTimeoutMs = 1_000): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
    commandTimeout: commandTimeoutMs,
    ...options,
  });
  reportOutages(client, url);
  return client;
}

/**
 * One line when Redis goes away and one when it is back (with the requests refused meanwhile), instead
 * of ioredis's error at every retry.
 */
export function reportOutages(client: Redis, url: string, outage: Outage = REDIS_OUTAGE): void {
  client.on('error', (error: Error) => outage.begin(`${where(url)}: ${error.message}`));
  client.on('reconnecting', () => outage.begin(`${where(url)}: the connection was lost`));
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
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    username: parsed.username || undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
    maxRetriesPerRequest: null,
  };
}

function where(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || 6379}`;
}
