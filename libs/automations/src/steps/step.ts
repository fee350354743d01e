// What every step kind gets and gives back. One file per step kind beside this one.
import type { ClaimedRun } from '../runs.repository';

export interface StepContext {
  run: ClaimedRun;
  automation: { number: number; name: string };
  workspace: { id: string; slug: string };
}

/** The step's one log line, and where the run goes next. */
export type StepOutcome =
  { line: string; next: 'continue' } | { line: string; next: 'fail' } | { line: string; next: 'wait'; until: Date };
