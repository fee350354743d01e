// Automations as owners and admins save them (docs/graphql.md#automations): trigger and steps are checked
// when saved (an event trigger names a built-in or a seen custom name, a list or segment exists, http_request's
// url passes the public-https address rule, send_email names an existing template, wait is 1 second
// to 30 days). The start address is derived, never stored, and shown only for a webhook trigger.
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig, CONFIG, newId, Refusal } from '@app/platform';
import { isBuiltInEvent, SegmentsService, TimelineRepository } from '@app/events';
import { TemplatesRepository } from '@app/messaging';
import { PeopleReadRepository } from '@app/people';
import { AddressResolver, deriveWorkspaceStepSecret } from '@app/webhooks';
import { AUTOMATION_STATUSES, AutomationRow, AutomationsRepository, AutomationStatus } from './automations.repository';
import { RUN_STATES, RunLogRow, RunsRepository, RunState } from './runs.repository';
import { automationAddress, AutomationStep, AutomationTrigger, parseSteps, parseTrigger, RawStep } from './domain';

export interface AutomationInput {
  name?: string | null;
  trigger?: { kind?: unknown; event?: unknown; stage?: unknown; list?: unknown; segment?: unknown } | null;
  steps?: RawStep[] | null;
}

const MAX_NAME = 200;

@Injectable()
export class AutomationsService {
  constructor(
    private readonly automations: AutomationsRepository,
    private readonly runLog: RunsRepository,
    private readonly timeline: TimelineRepository,
    private readonly people: PeopleReadRepository,
    private readonly segments: SegmentsService,
    private readonly templates: TemplatesRepository,
    private readonly addresses: AddressResolver,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /** A new automation is a draft; the address is answered only for a webhook trigger. */
  async create(
    workspaceId: string,
    input: AutomationInput,
  ): Promise<{ automation: AutomationRow; address: string | null }> {
    const name = checkedName(input.name);
    const trigger = await this.checkedTrigger(workspaceId, input.trigger ?? {});
    const steps = await this.checkedSteps(workspaceId, input.steps ?? []);
    const automation = await this.automations.create({ workspaceId, id: newId('aut'), name, trigger, steps });
    return { automation, address: this.addressOf(automation) };
  }

  async update(workspaceId: string, id: string, input: AutomationInput): Promise<AutomationRow> {
    await this.get(workspaceId, id);
    const changes = {
      name: input.name == null ? undefined : checkedName(input.name),
      trigger: input.trigger == null ? undefined : await this.checkedTrigger(workspaceId, input.trigger),
      steps: input.steps == null ? undefined : await this.checkedSteps(workspaceId, input.steps),
    };
    return (await this.automations.update(workspaceId, id, changes)) ?? notFound(id);
  }

  /** Only running automations start runs; runs already started go on to their end. */
  async setStatus(workspaceId: string, id: string, status: string): Promise<AutomationRow> {
    if (!(AUTOMATION_STATUSES as readonly string[]).includes(status)) {
      throw new Refusal('invalid_field', `Set status to one of ${AUTOMATION_STATUSES.join(', ')}.`, {
        field: 'status',
      });
    }
    return (await this.automations.update(workspaceId, id, { status: status as AutomationStatus })) ?? notFound(id);
  }

  list(workspaceId: string): Promise<AutomationRow[]> {
    return this.automations.list(workspaceId);
  }

  async get(workspaceId: string, id: string): Promise<AutomationRow> {
    return (await this.automations.get(workspaceId, id)) ?? notFound(id);
  }

  /** The latest `first` runs of each automation, newest first, only those in `state` when one is named. */
  runs(
    workspaceId: string,
    automationIds: readonly string[],
    first: number,
    state: string | null,
  ): Promise<RunLogRow[]> {
    if (state != null && !(RUN_STATES as readonly string[]).includes(state)) {
      throw new Refusal('invalid_field', `status is one of ${RUN_STATES.join(', ')}; leave it out for every run.`, {
        field: 'status',
      });
    }
    return this.runLog.latestOf(workspaceId, automationIds, first, state as RunState | null);
  }

  /** The full start address, for a webhook trigger only. */
  addressOf(automation: AutomationRow): string | null {
    return automation.trigger.kind === 'webhook'
      ? automationAddress(this.config.baseUrl, this.config.appSecret, automation.id)
      : null;
  }

  /** The workspace's http_request signing secret (derived, never stored). */
  signingSecret(workspaceId: string): string {
    return deriveWorkspaceStepSecret(this.config.appSecret, workspaceId);
  }

  private async checkedTrigger(
    workspaceId: string,
    raw: NonNullable<AutomationInput['trigger']>,
  ): Promise<AutomationTrigger> {
    const trigger = parseTrigger(raw);
    if (trigger instanceof Refusal) throw trigger;
    // A custom name is offered as a trigger once the workspace has seen it.
    if (trigger.kind === 'event' && !isBuiltInEvent(trigger.event!)) {
      const seen = await this.timeline.seenNames(workspaceId);
      if (!seen.some((n) => n.name === trigger.event)) {
        throw new Refusal(
          'unknown_event',
          `The workspace has not seen an event named "${trigger.event}" yet: post one first, or choose a ` +
            `built-in name.`,
          {
            field: 'trigger.event',
          },
        );
      }
    }
    if ((trigger.kind === 'subscribed' || trigger.kind === 'unsubscribed') && trigger.list !== undefined) {
      const lists = await this.people.lists(workspaceId);
      if (!lists.some((l) => l.address === trigger.list)) {
        throw new Refusal(
          'unknown_list',
          `No list has the address "${trigger.list.slice(0, 80)}": create it first, or leave trigger.list out ` +
            `for any list.`,
          {
            field: 'trigger.list',
          },
        );
      }
    }
    if (trigger.segment !== undefined && !(await this.segments.find(workspaceId, trigger.segment))) {
      throw new Refusal(
        'not_found',
        `No segment has the id "${trigger.segment.slice(0, 80)}" in this workspace: list them with segments, or ` +
          `leave trigger.segment out for any segment.`,
        { field: 'trigger.segment' },
      );
    }
    return trigger;
  }

  private async checkedSteps(workspaceId: string, raw: RawStep[]): Promise<AutomationStep[]> {
    const steps = parseSteps(raw);
    if (steps instanceof Refusal) throw steps;
    for (const [index, step] of steps.entries()) {
      if (step.kind === 'http_request') {
        // Resolved when saved, as webhook endpoints are (every address it resolves to must be public).
        step.url = await this.addresses.checkedAddress(step.url, `steps[${index}].url`).catch((refusal: Refusal) => {
          throw new Refusal('invalid_field', `steps[${index}].url: ${refusal.message}`, {
            field: `steps[${index}].url`,
          });
        });
      }
      if (step.kind === 'send_email' && !(await this.templates.byIdOrName(workspaceId, step.template))) {
        throw new Refusal(
          'unknown_template',
          `steps[${index}].template: no template has the name or id "${step.template.slice(0, 80)}": create it first.`,
          {
            field: `steps[${index}].template`,
          },
        );
      }
    }
    return steps;
  }
}

function checkedName(raw: string | null | undefined): string {
  const name = (raw ?? '').trim();
  if (!name || name.length > MAX_NAME)
    throw new Refusal('invalid_field', `Give the automation a name of 1 to ${MAX_NAME} characters.`, { field: 'name' });
  return name;
}

function notFound(id: string): never {
  throw new Refusal('not_found', `No automation ${id.slice(0, 60)} in this workspace: check the id.`);
}
