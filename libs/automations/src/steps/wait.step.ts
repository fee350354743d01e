// docs/graphql.md#automations: wait suspends the run. The run's next step and the time it is due are kept
// in PostgreSQL (the run service records them), so a wait outlives a restart of the worker and of Redis.
import { waitingLine } from '../domain';
import type { StepOutcome } from './step';

export function waitStep(step: { seconds: number }, now = new Date()): StepOutcome {
  const until = new Date(now.getTime() + step.seconds * 1000);
  return { line: waitingLine(step.seconds, until), next: 'wait', until };
}
