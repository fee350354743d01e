// Prometheus figures: one registry per process, to which each lib adds the gauges of what
// it owns (the outbox its backlog, webhooks its deliveries), read at scrape; the api serves it at
// /metrics (libs/edge). Platform adds its own: queue depths and the worker's memory.
import { Inject, Injectable } from '@nestjs/common';
import { Gauge, type GaugeConfiguration, Registry } from 'prom-client';
import type { AppConfig } from '../config/config';
import { CONFIG } from '../config/config.token';
import { declaredQueues } from '../queues/queues';
import { queuePrefix, REDIS, type RedisClient } from '../redis/redis';
import { readWorkerHeartbeat } from './worker-heartbeat';

@Injectable()
export class MetricsRegistry {
  readonly registry = new Registry();

  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {
    const self = this;
    this.gauge({
      name: 'lifeline_queue_jobs',
      help: 'BullMQ jobs by queue and state',
      labelNames: ['queue', 'state'],
      async collect() {
        for (const queue of declaredQueues()) {
          for (const [state, n] of Object.entries(await self.queueDepth(queue))) this.set({ queue, state }, n);
        }
      },
    });
    this.gauge({
      name: 'lifeline_worker_resident_memory_bytes',
      help: "The worker's resident memory at its last heartbeat (0 when no worker beats)",
      async collect() {
        this.set((await readWorkerHeartbeat(self.redis, self.config.redisPrefix))?.rss ?? 0);
      },
    });
  }

  /** A gauge in this registry; its collect() runs at each scrape. */
  gauge<T extends string>(configuration: Omit<GaugeConfiguration<T>, 'registers'>): Gauge<T> {
    return new Gauge<T>({ ...configuration, registers: [this.registry] });
  }

  /** One queue's jobs by state, read from BullMQ's keys in one round trip. */
  private async queueDepth(queue: string): Promise<Record<'waiting' | 'active' | 'delayed' | 'failed', number>> {
    const key = (part: string) => `${queuePrefix(this.config, queue)}:${queue}:${part}`;
    const answers = await this.redis
      .multi()
      .llen(key('wait'))
      .zcard(key('prioritized'))
      .llen(key('active'))
      .zcard(key('delayed'))
      .zcard(key('failed'))
      .exec();
    const n = (i: number) => Number(answers?.[i]?.[1] ?? 0);
    return { waiting: n(0) + n(1), active: n(2), delayed: n(3), failed: n(4) };
  }
}
