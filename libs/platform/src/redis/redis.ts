import Redis, { RedisOptions } from 'ioredis';
import { redisUnreachable } from '../runtime/unreachable';

export const REDIS = Symbol('REDIS');

/** A client that fails fast while Redis is down, so a request never waits on it. */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  const client = new Redis(url, { enableOfflineQueue: false, enableAutoPipelining: true, maxRetriesPerRequest: 1, lazyConnect: false, ...options });
  reportOutages(client, url);
  return client;
}

/** One line when Redis goes away and one when it is back, instead of ioredis's error at every retry. */
export function reportOutages(client: Redis, url: string, log: (line: string) => void = (l) => console.error(l)): void {
  let down = false;
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    log(redisUnreachable(error, url)?.message ?? `Redis: ${error.message}`);
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log('Redis answers again.');
  });
}

/** BullMQ wants blocking connections that retry for ever. */
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
