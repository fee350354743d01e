// docs/graphql.md#automations: an automation's trigger is an event name, stage_entered (optionally one
// stage), subscribed or unsubscribed (optionally one list address), segment_entered or segment_left (optionally
// one segment id), person_erased (to erase copies elsewhere), or webhook (its own address). The kinds other
// than webhook are matched against the outbox's happenings, each with the data of its trigger
// (docs/webhooks.md#triggers-and-bodies).
import { Refusal } from '@app/platform';
import { classifyEventName } from '@app/events';
import { isStage, STAGES } from '@app/people';

export const TRIGGER_KINDS = [
  'event',
  'stage_entered',
  'subscribed',
  'unsubscribed',
  'segment_entered',
  'segment_left',
  'person_erased',
  'webhook',
] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

export interface AutomationTrigger {
  kind: TriggerKind;
  /** kind event: a built-in name or a custom name the workspace has seen. */
  event?: string;
  /** kind stage_entered: only this stage; any stage when absent. */
  stage?: string;
  /** kind subscribed or unsubscribed: only this list's address; any list when absent. */
  list?: string;
  /** kind segment_entered or segment_left: only this segment's id; any segment when absent. */
  segment?: string;
}

/** What a happening carries per trigger it fires (the outbox payload's data). */
export type HappeningData = Record<string, Record<string, unknown> | undefined>;

const FIELDS_OF: Record<TriggerKind, ReadonlyArray<keyof AutomationTrigger>> = {
  event: ['event'],
  stage_entered: ['stage'],
  subscribed: ['list'],
  unsubscribed: ['list'],
  segment_entered: ['segment'],
  segment_left: ['segment'],
  person_erased: [],
  webhook: [],
};

const invalid = (field: string, message: string) => new Refusal('invalid_field', message, { field });

/**
 * The trigger's shape: a known kind and only that kind's own fields. Whether a custom event name was
 * seen and whether a list exists are the service's checks (they read the workspace).
 */
export function parseTrigger(raw: {
  kind?: unknown;
  event?: unknown;
  stage?: unknown;
  list?: unknown;
  segment?: unknown;
}): AutomationTrigger | Refusal {
  const kind = raw.kind;
  if (typeof kind !== 'string' || !(TRIGGER_KINDS as readonly string[]).includes(kind)) {
    return invalid('trigger.kind', `Set trigger.kind to one of ${TRIGGER_KINDS.join(', ')}.`);
  }
  const own = FIELDS_OF[kind as TriggerKind];
  for (const field of ['event', 'stage', 'list', 'segment'] as const) {
    if (raw[field] != null && !own.includes(field)) {
      return invalid(`trigger.${field}`, `A ${kind} trigger takes no ${field}: remove trigger.${field}.`);
    }
  }
  const trigger: AutomationTrigger = { kind: kind as TriggerKind };
  if (kind === 'event') {
    const named = classifyEventName(raw.event);
    if (named instanceof Refusal)
      return new Refusal(named.code, `trigger.event: ${named.message}`, { field: 'trigger.event' });
    trigger.event = raw.event as string;
  }
  if (kind === 'stage_entered' && raw.stage != null) {
    const stage = typeof raw.stage === 'string' ? raw.stage.trim().toLowerCase() : '';
    if (!isStage(stage))
      return invalid(
        'trigger.stage',
        `Set trigger.stage to one of ${STAGES.join(', ')}, or leave it out for any stage.`,
      );
    trigger.stage = stage;
  }
  if ((kind === 'subscribed' || kind === 'unsubscribed') && raw.list != null) {
    const list = typeof raw.list === 'string' ? raw.list.trim() : '';
    if (!list) return invalid('trigger.list', 'Set trigger.list to a list address, or leave it out for any list.');
    trigger.list = list;
  }
  if ((kind === 'segment_entered' || kind === 'segment_left') && raw.segment != null) {
    const segment = typeof raw.segment === 'string' ? raw.segment.trim() : '';
    if (!segment)
      return invalid('trigger.segment', 'Set trigger.segment to a segment id, or leave it out for any segment.');
    trigger.segment = segment;
  }
  return trigger;
}

/** Does a happening (its data per trigger) start an automation with this trigger? Never for webhook. */
export function triggerMatches(trigger: AutomationTrigger, data: HappeningData): boolean {
  switch (trigger.kind) {
    case 'event':
      return data.event?.event === trigger.event;
    case 'stage_entered':
      return !!data.stage_entered && (trigger.stage === undefined || data.stage_entered.stage === trigger.stage);
    case 'subscribed':
    case 'unsubscribed': {
      const facts = data[trigger.kind];
      const list = facts?.list as { address?: unknown } | undefined;
      return !!facts && (trigger.list === undefined || list?.address === trigger.list);
    }
    case 'segment_entered':
    case 'segment_left': {
      const facts = data[trigger.kind];
      const segment = facts?.segment as { id?: unknown } | undefined;
      return !!facts && (trigger.segment === undefined || segment?.id === trigger.segment);
    }
    case 'person_erased':
      return !!data.person_erased;
    case 'webhook':
      return false;
  }
}

/**
 * Is the happening history (an import, or an event older than the workspace's window on arrival)? Then it starts no
 * run, whatever the trigger (docs/decisions.md#history-starts-no-automation).
 */
export function isHistorical(data: HappeningData): boolean {
  return Object.values(data).some((facts) => facts?.historical === true);
}

/** The trigger as an http_request body names it: kind, and event when the trigger is an event. */
export function triggerFacts(trigger: AutomationTrigger): { kind: string; event?: string } {
  return trigger.kind === 'event' ? { kind: trigger.kind, event: trigger.event } : { kind: trigger.kind };
}
