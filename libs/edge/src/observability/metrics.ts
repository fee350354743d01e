// Operator visibility (issue 16): Prometheus metrics of the api. Requests and event items are counted
// here, at the HTTP edge (requestMetrics), from the status and the answer's envelope, so no door's
// code has to remember to count; the backlog figures are read from PostgreSQL and Redis at scrape.
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { NextFunction, Request, Response } from 'express';
import type Redis from 'ioredis';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import type { AppConfig } from '@app/platform';
import { CONFIG, QUEUES, REDIS, readWorkerHeartbeat } from '@app/platform';
import { RELAY_MARK } from '@app/outbox';

/** The routes whose answers are event items: the key-authenticated door and the public website doors. */
export function ingestDoor(method: string, route: string | undefined): 'server' | 'public' | null {
  if (method !== 'POST' || !route) return null;
  if (route === '/api/v1/events') return 'server';
  if (route === '/api/in/:publicKey/:action') return 'public';
  return null;
}

/** Outcome of each item of an ingest answer: 'accepted' or the refusal code. */
export function itemOutcomes(status: number, body: unknown): string[] {
  const answer = (body ?? {}) as { ok?: unknown; error?: unknown; results?: Array<{ ok?: unknown; error?: unknown }> };
  if (Array.isArray(answer.results)) return answer.results.map((r) => (r.ok === false && typeof r.error === 'string' ? r.error : 'accepted'));
  if (answer.ok === false && typeof answer.error === 'string') return [answer.error];
  return [status < 400 ? 'accepted' : 'server_error'];
}

@Injectable()
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({ name: 'lifeline_http_requests_total', help: 'HTTP requests answered, by route, status and refusal code', labelNames: ['method', 'route', 'status', 'code'], registers: [this.registry] });
  private readonly events = new Counter({ name: 'lifeline_events_total', help: 'Event items posted, by door and outcome (accepted or the refusal code)', labelNames: ['door', 'outcome'], registers: [this.registry] });
  private readonly ingestSeconds = new Histogram({
    name: 'lifeline_ingest_duration_seconds',
    help: 'Time to answer an ingest post, by door',
    labelNames: ['door'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {
    collectDefaultMetrics({ register: this.registry, prefix: 'lifeline_api_' });
    const self = this;
    new Gauge({
      name: 'lifeline_outbox_backlog',
      help: 'Outbox rows (one per writing transaction) not yet relayed',
      registers: [this.registry],
      async collect() {
        const [row] = await self.dataSource.query(`SELECT count(*)::int AS n, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float AS age FROM outbox o WHERE (o.xid, o.id) > ${RELAY_MARK}`);
        this.set(row.n);
        self.outboxAge.set(row.age);
      },
    });
    new Gauge({
      name: 'lifeline_deliveries',
      help: 'Webhook deliveries kept, by state (pending, succeeded, failed)',
      labelNames: ['state'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const state of ['pending', 'succeeded', 'failed']) this.set({ state }, 0);
        for (const row of await self.dataSource.query(`SELECT state, count(*)::int AS n FROM deliveries GROUP BY state`)) this.set({ state: row.state }, row.n);
      },
    });
    new Gauge({
      name: 'lifeline_queue_jobs',
      help: 'BullMQ jobs by queue and state',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        const key = (queue: string, part: string) => `${self.config.redisPrefix}:${queue}:${part}`;
        for (const queue of Object.values(QUEUES)) {
          const answers = await self.redis
            .multi()
            .llen(key(queue, 'wait'))
            .zcard(key(queue, 'prioritized'))
            .llen(key(queue, 'active'))
            .zcard(key(queue, 'delayed'))
            .zcard(key(queue, 'failed'))
            .exec();
          const n = (i: number) => Number(answers?.[i]?.[1] ?? 0);
          this.set({ queue, state: 'waiting' }, n(0) + n(1));
          this.set({ queue, state: 'active' }, n(2));
          this.set({ queue, state: 'delayed' }, n(3));
          this.set({ queue, state: 'failed' }, n(4));
        }
      },
    });
    new Gauge({
      name: 'lifeline_worker_resident_memory_bytes',
      help: "The worker's resident memory at its last heartbeat (0 when no worker beats)",
      registers: [this.registry],
      async collect() {
        this.set((await readWorkerHeartbeat(self.redis, self.config.redisPrefix))?.rss ?? 0);
      },
    });
  }

  private readonly outboxAge = new Gauge({ name: 'lifeline_outbox_oldest_age_seconds', help: 'Age of the oldest outbox row not yet relayed', registers: [this.registry] });

  /** Express middleware: counts each answer when it has been sent. */
  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => this.record(req.method, req.route?.path as string | undefined, res.statusCode, res.locals.refusal, started, res.locals.answer));
    next();
  };

  /** One answer: the request count, and for the ingest doors its time and each item's outcome. */
  record(method: string, route: string | undefined, status: number, refusal: string | undefined, started: bigint, answer: unknown): void {
    this.requests.inc({ method, route: route ?? 'unmatched', status: String(status), code: refusal ?? '' });
    const door = ingestDoor(method, route);
    if (!door) return;
    this.ingestSeconds.observe({ door }, Number(process.hrtime.bigint() - started) / 1e9);
    for (const outcome of itemOutcomes(status, answer)) this.events.inc({ door, outcome });
  }
}
