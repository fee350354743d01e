// The triggers other than webhook are fed from the outbox, in the same relay pass
// that feeds outgoing webhooks, inside its transaction: a trigger is never lost when a process dies,
// and a run is unique per automation and happening, so a replayed outbox row starts nothing twice.
// The runs' first steps are queued after the relay commits (the poll covers a crash in between).
// A happening of history (data.historical) starts no run whatever the trigger; each automation it would
// have started counts it as passed over (docs/decisions.md#history-starts-no-automation).
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { newId } from '@app/platform';
import { OutboxHandler, OutboxRow } from '@app/outbox';
import { type AutomationRow, AutomationsRepository } from './automations.repository';
import { AutomationTrigger, HappeningData, isHistorical, startedLine, triggerMatches } from './domain';
import { RunQueue } from './run-queue';
import { NewRun, RunsRepository } from './runs.repository';

/** What a happening can start: a running automation of the workspace, triggered by anything but its own address. */
type HeardAutomation = Pick<AutomationRow, 'workspace_id' | 'id' | 'trigger' | 'steps'>;

@Injectable()
export class AutomationRelayService implements OutboxHandler<HeardAutomation> {
  readonly name = 'automations';
  /** The running automations of these workspaces that happenings can start. */
  readonly hearing = `SELECT workspace_id, id, trigger, steps FROM automations
    WHERE workspace_id = ANY($1::text[]) AND status = 'running' AND trigger ->> 'kind' <> 'webhook'`;

  constructor(
    private readonly runs: RunsRepository,
    private readonly queue: RunQueue,
    private readonly automations: AutomationsRepository,
  ) {}

  /** Starts a run for each automation each happening about a person triggers. */
  async handle(
    manager: EntityManager,
    rows: OutboxRow[],
    automations: HeardAutomation[],
  ): Promise<(() => Promise<void>) | void> {
    const aboutPeople = rows.filter((row) => row.personId);
    const runs: NewRun[] = [];
    const passedOver = new Map<HeardAutomation, number>();
    for (const row of aboutPeople) {
      const data = ((row.payload as { data?: HappeningData }).data ?? {}) as HappeningData;
      const history = isHistorical(data);
      for (const automation of automations) {
        if (automation.workspace_id !== row.workspaceId || !triggerMatches(automation.trigger, data)) continue;
        if (history) {
          passedOver.set(automation, (passedOver.get(automation) ?? 0) + 1);
          continue;
        }
        runs.push({
          workspaceId: row.workspaceId,
          id: newId('run'),
          automationId: automation.id,
          personId: row.personId!,
          outboxId: row.id,
          trigger: automation.trigger,
          steps: automation.steps,
          properties: null,
          firstLine: startedLine(asHappened(automation.trigger, data)),
        });
      }
    }
    await this.automations.passOver(
      manager,
      [...passedOver].map(([a, n]) => ({ workspaceId: a.workspace_id, id: a.id, n })),
    );
    const created = await this.runs.insert(manager, runs);
    if (created.length === 0) return;
    return async () => {
      await this.queue.enqueue(created);
    };
  }
}

/** The trigger as this happening fired it (the stage, list or segment), for the log line. */
function asHappened(trigger: AutomationTrigger, data: HappeningData): AutomationTrigger {
  if (trigger.kind === 'stage_entered') return { ...trigger, stage: String(data.stage_entered?.stage ?? '') };
  if (trigger.kind === 'subscribed' || trigger.kind === 'unsubscribed') {
    const list = data[trigger.kind]?.list as { address?: string } | undefined;
    return { ...trigger, list: String(list?.address ?? '') };
  }
  if (trigger.kind === 'segment_entered' || trigger.kind === 'segment_left') {
    const segment = data[trigger.kind]?.segment as { id?: string } | undefined;
    return { ...trigger, segment: String(segment?.id ?? '') };
  }
  return trigger;
}
