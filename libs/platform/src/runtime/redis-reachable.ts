// The start-up check of Redis: one ping, no retries, and on failure the one sentence of
// redisUnreachable rather than ioredis's endless reconnect loop. On a Redis Cluster the
// cluster must also cover every slot: a start on a cluster with a slot unserved would fail its first
// writes there instead.
import { ConfigError } from '../config/config';
import { connectRedis, RedisSettings, redisWhere } from '../redis/redis';
import { redisUnreachable } from './unreachable';

/** Pings Redis once, without retries; a failure is the one sentence of redisUnreachable. */
export async function ensureRedisReachable(settings: RedisSettings, timeoutMs = 3_000): Promise<void> {
  const client = connectRedis(
    settings,
    {
      lazyConnect: true,
      connectTimeout: timeoutMs,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      enableOfflineQueue: false,
    },
    { clusterRetryStrategy: () => null, enableReadyCheck: true },
  );
  client.on('error', () => undefined); // the failure is reported below, once
  let state: string | undefined;
  try {
    await client.connect();
    await client.ping();
    if (settings.redisClusterNodes) state = /cluster_state:(\w+)/.exec(await client.cluster('INFO'))?.[1];
  } catch (error) {
    throw (
      redisUnreachable(error, settings.redisUrl, settings.redisClusterNodes ? redisWhere(settings) : undefined) ?? error
    );
  } finally {
    client.disconnect();
  }
  if (settings.redisClusterNodes && state !== 'ok') {
    throw new ConfigError(
      `${redisWhere(settings)} answers but its cluster_state is ${state ?? 'unknown'}, not ok: wait for its ` +
        `failover to end or fix its slots (redis-cli --cluster check).`,
    );
  }
}
