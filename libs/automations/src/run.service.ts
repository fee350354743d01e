// Runs a run's steps in order: claims the run, runs each step, and records each
// step's line and the next step before the following one starts, so a worker that dies mid-run
// repeats at most the step it was in. A wait records the time the run is due and queues a delayed job;
// the poll queues the run again if that job is lost with Redis.
import { Injectable, Logger } from '@nestjs/common';
import { WorkspacesService } from '@app/workspaces';
import { AutomationsRepository } from './automations.repository';
import { AutomationStep, FINISHED_LINE, INTERRUPTED_LINE, RESUMED_LINE } from './domain';
import { RunQueue } from './run-queue';
import { ClaimedRun, RunsRepository, RunState } from './runs.repository';
import { HttpRequestStep } from './steps/http-request.step';
import { SendEmailStep } from './steps/send-email.step';
import type { StepContext, StepOutcome } from './steps/step';
import { waitStep } from './steps/wait.step';

export type AdvanceOutcome = RunState | 'not-claimed' | 'claim-lost';

/** A delayed job may fire a little before the database's clock says the run is due. */
const WAKE_MARGIN_MS = 100;

@Injectable()
export class RunService {
  private readonly logger = new Logger('AutomationRuns');

  constructor(
    private readonly runs: RunsRepository,
    private readonly automations: AutomationsRepository,
    private readonly workspaces: WorkspacesService,
    private readonly queue: RunQueue,
    private readonly httpRequest: HttpRequestStep,
    private readonly sendEmail: SendEmailStep,
  ) {}

  async advance(workspaceId: string, runId: string): Promise<AdvanceOutcome> {
    const run = await this.runs.claim(workspaceId, runId);
    if (!run) return 'not-claimed';
    const lines: string[] = [];
    if (run.tookOver) lines.push(INTERRUPTED_LINE);
    if (run.resumed) lines.push(RESUMED_LINE);
    const context = await this.context(run);

    for (let step = run.step; step < run.steps.length; step++) {
      const outcome = await this.runStep(run.steps[step], context);
      lines.push(outcome.line);
      const next = step + 1;
      if (outcome.next === 'wait') {
        if (
          !(await this.runs.record(workspaceId, runId, run.claim, {
            lines,
            step: next,
            state: 'waiting',
            dueAt: outcome.until,
          }))
        )
          return 'claim-lost';
        await this.queue.enqueue([
          { workspaceId, runId, step: next, delayMs: outcome.until.getTime() - Date.now() + WAKE_MARGIN_MS },
        ]);
        return 'waiting';
      }
      const state: RunState = outcome.next === 'fail' ? 'failed' : next === run.steps.length ? 'finished' : 'running';
      if (state === 'finished') lines.push(FINISHED_LINE);
      if (!(await this.runs.record(workspaceId, runId, run.claim, { lines: lines.splice(0), step: next, state })))
        return 'claim-lost';
      if (state !== 'running') return state;
    }
    // No steps left (an automation without steps, or a wait that was the last step).
    lines.push(FINISHED_LINE);
    return (await this.runs.record(workspaceId, runId, run.claim, { lines, step: run.steps.length, state: 'finished' }))
      ? 'finished'
      : 'claim-lost';
  }

  private runStep(step: AutomationStep, context: StepContext): Promise<StepOutcome> {
    switch (step.kind) {
      case 'http_request':
        return this.httpRequest.run(step, context);
      case 'send_email':
        return this.sendEmail.run(step, context);
      case 'wait':
        return Promise.resolve(waitStep(step));
    }
  }

  /** The automation's number and name as they are now, and the workspace the body names. */
  private async context(run: ClaimedRun): Promise<StepContext> {
    const [automation, workspace] = await Promise.all([
      this.automations.get(run.workspace_id, run.automation_id),
      this.workspaces.get(run.workspace_id),
    ]);
    return {
      run,
      automation: { number: automation?.number ?? 0, name: automation?.name ?? '' },
      workspace: { id: workspace.id, slug: workspace.slug },
    };
  }
}
