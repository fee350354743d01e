// Per-workspace turns at expensive work. At most `running` tasks at once in all, at most
// `perWorkspace` of one workspace, and the free places go round the waiting workspaces in turn: a
// workspace that keeps the render threads busy gets one turn in each round, like every other.

export interface FairQueueLimits {
  /** Tasks running at once, all workspaces together (the render threads). */
  running: number;
  /** Tasks of one workspace running at once. */
  perWorkspace: number;
  /** Tasks of one workspace waiting for a turn; past it the workspace is told to come back later. */
  waitingPerWorkspace: number;
}

export type Admission = 'run' | 'wait' | 'full';

export class FairQueue<T> {
  private readonly runningBy = new Map<string, number>();
  /** Waiting tasks by workspace; a Map keeps insertion order, and a served workspace goes to the back. */
  private readonly waitingBy = new Map<string, T[]>();
  private runningNow = 0;
  private waitingNow = 0;

  constructor(private readonly limits: FairQueueLimits) {}

  get running(): number {
    return this.runningNow;
  }

  get waiting(): number {
    return this.waitingNow;
  }

  /**
   * 'run': start it now (it counts as running); 'wait': it was queued, `finish` hands it out later; 'full': refused.
   */
  offer(workspace: string, task: T): Admission {
    const queue = this.waitingBy.get(workspace);
    if (
      !queue &&
      this.runningNow < this.limits.running &&
      (this.runningBy.get(workspace) ?? 0) < this.limits.perWorkspace
    ) {
      this.start(workspace);
      return 'run';
    }
    if ((queue?.length ?? 0) >= this.limits.waitingPerWorkspace) return 'full';
    if (queue) queue.push(task);
    else this.waitingBy.set(workspace, [task]);
    this.waitingNow++;
    return 'wait';
  }

  /** One task of `workspace` ended: the waiting tasks that start now, in turn order (they count as running). */
  finish(workspace: string): Array<{ workspace: string; task: T }> {
    const left = (this.runningBy.get(workspace) ?? 1) - 1;
    if (left > 0) this.runningBy.set(workspace, left);
    else this.runningBy.delete(workspace);
    this.runningNow--;
    const queue = this.waitingBy.get(workspace);
    if (queue) {
      // Just served: behind every other workspace waiting now.
      this.waitingBy.delete(workspace);
      this.waitingBy.set(workspace, queue);
    }
    const started: Array<{ workspace: string; task: T }> = [];
    let next = this.nextTurn();
    while (next) {
      started.push(next);
      next = this.nextTurn();
    }
    return started;
  }

  private nextTurn(): { workspace: string; task: T } | null {
    if (this.runningNow >= this.limits.running) return null;
    for (const [workspace, queue] of this.waitingBy) {
      if ((this.runningBy.get(workspace) ?? 0) >= this.limits.perWorkspace) continue;
      const task = queue.shift()!;
      this.waitingBy.delete(workspace);
      if (queue.length) this.waitingBy.set(workspace, queue); // to the back of the turn order
      this.waitingNow--;
      this.start(workspace);
      return { workspace, task };
    }
    return null;
  }

  private start(workspace: string): void {
    this.runningBy.set(workspace, (this.runningBy.get(workspace) ?? 0) + 1);
    this.runningNow++;
  }
}
