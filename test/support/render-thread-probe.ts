// A module for RenderPool's own spec (libs/messaging/src/render/render-pool.spec.ts): tasks that answer,
// spin past any time limit, or grow past any memory limit, so the hard limits are seen ending a thread.
import { threadId } from 'node:worker_threads';

export default function probe(task: 'answer' | 'spin' | 'grow'): number {
  if (task === 'spin') for (;;);
  if (task === 'grow') {
    const kept: number[][] = [];
    for (;;) kept.push(new Array(1_000_000).fill(kept.length));
  }
  return threadId;
}
