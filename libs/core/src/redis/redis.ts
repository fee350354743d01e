import Redis, { RedisOptions } from 'ioredis';

export const REDIS = Symbol('REDIS');

/** A client that fails fast while Redis is down, so a request never waits on it. */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { enableOfflineQueue: false, enableAutoPipelining: true, maxRetriesPerRequest: 1, lazyConnect: false, ...options });
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
