// Render isolation (docs/security.md#render-isolation-one-workspace-cannot-stall-the-others): every
// template is parsed, and every message and preview rendered, in a render thread, never on the event loop,
// with hard limits of time and memory, and each workspace takes its turn at the threads, so one
// workspace's worst template costs the others nothing measurable.
import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsRegistry, Refusal } from '@app/platform';
import { liquidRefusal, RenderContext, RenderedMessage } from '../domain/template';
import { FairQueue } from './fair-queue';
import { OverLimit, RenderPool } from './render-pool';
import type { RenderOutcome, RenderTask } from './render-task';

/** One core stays with the event loop (and PostgreSQL beside it on a small machine). */
const THREADS = Math.min(4, Math.max(1, availableParallelism() - 1));

const RENDER_LIMITS = {
  threads: THREADS,
  /** A workspace never holds more than half the threads (all of one when there is one). */
  perWorkspace: Math.max(1, Math.floor(THREADS / 2)),
  /** A bound on memory, not a rate: turns keep workspaces fair, and a burst of ordinary sends waits milliseconds. */
  waitingPerWorkspace: 200,
  /** Liquid's own limit (1 s for each of subject and body) ends a long loop first; this is the backstop. */
  timeoutMs: 5_000,
  memoryMb: 96,
} as const;

@Injectable()
export class MessageRenderer implements OnApplicationShutdown {
  private readonly pool = new RenderPool({
    filename: join(__dirname, `render.worker${extname(__filename)}`),
    threads: RENDER_LIMITS.threads,
    timeoutMs: RENDER_LIMITS.timeoutMs,
    memoryMb: RENDER_LIMITS.memoryMb,
    warmUp: { kind: 'validate', subject: 'Hi', body: 'Hi {{ person.name }}' } satisfies RenderTask,
  });
  private readonly turns = new FairQueue<() => void>({
    running: RENDER_LIMITS.threads,
    perWorkspace: RENDER_LIMITS.perWorkspace,
    waitingPerWorkspace: RENDER_LIMITS.waitingPerWorkspace,
  });
  private readonly stopped: Counter<'limit'>;

  constructor(metrics: MetricsRegistry) {
    const turns = this.turns;
    metrics.gauge({
      name: 'lifeline_render_tasks',
      help: 'Template renders in the render threads (running) and waiting for a turn (waiting)',
      labelNames: ['state'],
      collect() {
        this.set({ state: 'running' }, turns.running);
        this.set({ state: 'waiting' }, turns.waiting);
      },
    });
    this.stopped = new Counter({
      name: 'lifeline_render_refused_total',
      help: 'Template renders refused by a render limit: time or memory (thread ended), or turns (too many waiting)',
      labelNames: ['limit'],
      registers: [metrics.registry],
    });
  }

  /** Refuses (invalid_field) a subject or body Liquid cannot parse: parsing a long template takes tens of ms too. */
  async validate(workspaceId: string, subject: string, body: string): Promise<void> {
    await this.run(workspaceId, { kind: 'validate', subject, body });
  }

  /** The message filled in for a person, rendered in a render thread when this workspace's turn comes. */
  async render(
    workspaceId: string,
    message: { subject: string; body: string },
    context: RenderContext,
  ): Promise<RenderedMessage> {
    return (await this.run(workspaceId, { kind: 'render', message, context }))!;
  }

  private async run(workspaceId: string, task: RenderTask): Promise<RenderedMessage | undefined> {
    await this.turn(workspaceId);
    let outcome: RenderOutcome;
    try {
      outcome = await this.pool.run<RenderTask, RenderOutcome>(task);
    } catch (error) {
      if (!(error instanceof OverLimit)) throw error;
      this.stopped.inc({ limit: error.limit });
      throw liquidRefusal('subject or body', error);
    } finally {
      for (const next of this.turns.finish(workspaceId)) next.task();
    }
    if (!outcome.ok) throw new Refusal(outcome.code, outcome.message);
    return outcome.rendered;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }

  /** Resolves when the task may run; refuses when this workspace already has its fill waiting. */
  private turn(workspaceId: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const admission = this.turns.offer(workspaceId, resolve);
      if (admission === 'run') return resolve();
      if (admission === 'wait') return;
      this.stopped.inc({ limit: 'turns' });
      reject(
        new Refusal(
          'rate_limited',
          `This workspace already has ${RENDER_LIMITS.waitingPerWorkspace} messages waiting to be rendered: ` +
            `wait a second and send it again.`,
          {
            retryAfter: 1,
          },
        ),
      );
    });
  }
}
