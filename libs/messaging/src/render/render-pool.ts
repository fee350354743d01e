// Work that may run long, off the event loop. A few worker threads (piscina), each with
// a memory limit; a task past its time limit is ended by terminating its thread (piscina starts another).
// The threads start with the first task, so a process that never renders has none.
import { extname } from 'node:path';
import { Logger } from '@nestjs/common';
import { Piscina } from 'piscina';

export interface RenderPoolOptions {
  /** The module a thread loads; its default export runs each task. */
  filename: string;
  threads: number;
  /** Wall time a task may take, once the threads have loaded their module. */
  timeoutMs: number;
  /** The V8 heap of one thread (old and young generations). */
  memoryMb: number;
  /** A quick task each new thread runs first, outside the time limit: loading its module is not the task's time. */
  warmUp: unknown;
}

/** A task ended by a hard limit: its thread ran past the time limit or out of memory. */
export class OverLimit extends Error {
  constructor(readonly limit: 'time' | 'memory') {
    super(`render ${limit} limit exceeded`);
    this.name = 'OverLimit';
  }
}

/** Beneath the main thread: when the cores are all busy, the api's event loop goes first. */
const NICE_INCREMENT = 19;
/** A thread that has not loaded its module in this long is left to piscina, and tasks go on to their own limit. */
const WARM_UP_MS = 60_000;

export class RenderPool {
  private readonly logger = new Logger('Render');
  private pool: Piscina | null = null;
  /** Threads loading their module: tasks wait for this before their time starts. */
  private warming: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: RenderPoolOptions) {}

  async run<T, R>(task: T): Promise<R> {
    const pool = this.started();
    await this.warming;
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    try {
      return (await pool.run(task, { signal: timeout })) as R;
    } catch (error) {
      const over = timeout.aborted
        ? 'time'
        : (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? 'memory'
          : null;
      if (!over) throw error;
      this.warmUp(pool, 1); // the thread that replaces the one ended
      throw new OverLimit(over);
    }
  }

  /** Ends the threads (a running task is rejected); no task runs after. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool?.destroy();
  }

  private started(): Piscina {
    if (this.closed) throw new Error('The render threads were closed: the process is shutting down.');
    if (this.pool) return this.pool;
    const { filename, threads, memoryMb } = this.options;
    this.pool = new Piscina({
      filename,
      minThreads: threads,
      maxThreads: threads,
      // Sources run as TypeScript (tests, `npm start`): each thread compiles them as the main thread does.
      execArgv: extname(filename) === '.ts' ? ['--require', '@swc-node/register'] : [],
      resourceLimits: {
        maxOldGenerationSizeMb: memoryMb,
        maxYoungGenerationSizeMb: Math.max(4, Math.round(memoryMb / 8)),
      },
      niceIncrement: NICE_INCREMENT,
      // One task per thread; more would only wait in the thread for the same core.
      concurrentTasksPerWorker: 1,
    });
    // A thread that fails outside a task (it cannot load its module, say): piscina replaces it.
    this.pool.on('error', (error: Error) => this.logger.error(`A render thread failed: ${error.message}`));
    this.warmUp(this.pool, threads);
    return this.pool;
  }

  private warmUp(pool: Piscina, threads: number): void {
    const tasks = Array.from({ length: threads }, () =>
      pool.run(this.options.warmUp, { signal: AbortSignal.timeout(WARM_UP_MS) }),
    );
    this.warming = Promise.all([this.warming, ...tasks]).catch(() => undefined);
  }
}
