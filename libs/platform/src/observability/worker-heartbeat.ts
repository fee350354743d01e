// The worker's health for the api's readiness: the worker writes a key that expires unless
// renewed, so a worker that is gone or stuck disappears from /health/ready within HEARTBEAT_TTL_MS.
import { once } from 'node:events';
import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { CONFIG } from '../config/config.token';
import { within } from '../async/within';
import { REDIS, type RedisClient } from '../redis/redis';

export const HEARTBEAT_EVERY_MS = 5_000;
export const HEARTBEAT_TTL_MS = 20_000;

export interface Heartbeat {
  at: string;
  pid: number;
  rss: number;
}

const keyOf = (prefix: string) => `${prefix}:worker:heartbeat`;

export async function readWorkerHeartbeat(redis: RedisClient, prefix: string): Promise<Heartbeat | null> {
  const raw = await redis.get(keyOf(prefix));
  return raw ? (JSON.parse(raw) as Heartbeat) : null;
}

@Injectable()
export class WorkerHeartbeat implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // The shared client sends nothing before it is connected (no offline queue): the first beat waits
    // for it, briefly; a Redis that does not answer is reported by the client, not by a failed start.
    if (this.redis.status !== 'ready') await within(once(this.redis, 'ready'), 5_000).catch(() => undefined);
    await this.beat().catch(() => undefined);
    this.timer = setInterval(() => void this.beat().catch(() => undefined), HEARTBEAT_EVERY_MS).unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.redis.del(keyOf(this.config.redisPrefix)).catch(() => undefined);
  }

  private async beat(): Promise<void> {
    const heartbeat: Heartbeat = { at: new Date().toISOString(), pid: process.pid, rss: process.memoryUsage.rss() };
    await this.redis.set(keyOf(this.config.redisPrefix), JSON.stringify(heartbeat), 'PX', HEARTBEAT_TTL_MS);
  }
}
