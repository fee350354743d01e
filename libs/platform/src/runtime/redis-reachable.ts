// The start-up check of Redis (issue 16): one ping, no retries, and on failure the one sentence of
// redisUnreachable rather than ioredis's endless reconnect loop.
import Redis from 'ioredis';
import { redisUnreachable } from './unreachable';

/** Pings Redis once, without retries; a failure is the one sentence of redisUnreachable. */
export async function ensureRedisReachable(url: string, timeoutMs = 3_000): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  client.on('error', () => undefined); // the failure is reported below, once
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw redisUnreachable(error, url) ?? error;
  } finally {
    client.disconnect();
  }
}
