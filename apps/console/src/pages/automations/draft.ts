// An automation as its form holds it (docs/graphql.md#automations: trigger kinds event, stage_entered,
// subscribed, unsubscribed, segment_entered, segment_left, person_erased, webhook; step kinds http_request,
// send_email, wait), turned into the service's input, and both told in words for the lists and the page.
import { stageName } from '../../ui/stage';

export type TriggerKind =
  | 'event'
  | 'stage_entered'
  | 'subscribed'
  | 'unsubscribed'
  | 'segment_entered'
  | 'segment_left'
  | 'person_erased'
  | 'webhook';
export type StepKind = 'wait' | 'send_email' | 'http_request';

export const WAIT_UNITS = [
  ['seconds', 1],
  ['minutes', 60],
  ['hours', 3600],
  ['days', 86400],
] as const;
export type WaitUnit = (typeof WAIT_UNITS)[number][0];

export interface TriggerDraft {
  kind: TriggerKind;
  event: string;
  stage: string;
  list: string;
  /** A segment id; empty: any segment. */
  segment: string;
}

export interface StepDraft {
  /** Stable across reordering, so React keeps each step's fields with it. */
  key: number;
  kind: StepKind;
  amount: string;
  unit: WaitUnit;
  template: string;
  url: string;
}

export interface AutomationDraft {
  name: string;
  trigger: TriggerDraft;
  steps: StepDraft[];
}

/** What the service answers and takes (AutomationTrigger, AutomationStep). */
interface TriggerShape {
  kind: string;
  event?: string | null;
  stage?: string | null;
  list?: string | null;
  segment?: string | null;
}
interface StepShape {
  kind: string;
  seconds?: number | null;
  template?: string | null;
  url?: string | null;
}

let lastKey = 0;

export function newStep(kind: StepKind): StepDraft {
  return { key: ++lastKey, kind, amount: kind === 'wait' ? '1' : '', unit: 'days', template: '', url: '' };
}

export const EMPTY_DRAFT: AutomationDraft = {
  name: '',
  trigger: { kind: 'webhook', event: '', stage: '', list: '', segment: '' },
  steps: [],
};

/** The largest unit the wait is a whole number of. */
function waitIn(seconds: number): { amount: string; unit: WaitUnit } {
  const [unit, size] = [...WAIT_UNITS].reverse().find(([, size]) => seconds % size === 0) ?? WAIT_UNITS[0];
  return { amount: String(seconds / size), unit };
}

export function draftOf(automation: {
  name: string;
  trigger: TriggerShape;
  steps: readonly StepShape[];
}): AutomationDraft {
  const { trigger } = automation;
  return {
    name: automation.name,
    trigger: {
      kind: trigger.kind as TriggerKind,
      event: trigger.event ?? '',
      stage: trigger.stage ?? '',
      list: trigger.list ?? '',
      segment: trigger.segment ?? '',
    },
    steps: automation.steps.map((step) => ({
      ...newStep(step.kind as StepKind),
      ...(step.seconds ? waitIn(step.seconds) : {}),
      template: step.template ?? '',
      url: step.url ?? '',
    })),
  };
}

/** Only the trigger kind's own field, and none when "any" is chosen: the service refuses the others. */
function triggerInput(trigger: TriggerDraft): TriggerShape {
  if (trigger.kind === 'event') return { kind: 'event', event: trigger.event };
  if (trigger.kind === 'stage_entered')
    return trigger.stage ? { kind: 'stage_entered', stage: trigger.stage } : { kind: 'stage_entered' };
  if (trigger.kind === 'subscribed' || trigger.kind === 'unsubscribed')
    return trigger.list ? { kind: trigger.kind, list: trigger.list } : { kind: trigger.kind };
  if (trigger.kind === 'segment_entered' || trigger.kind === 'segment_left')
    return trigger.segment ? { kind: trigger.kind, segment: trigger.segment } : { kind: trigger.kind };
  if (trigger.kind === 'person_erased') return { kind: 'person_erased' };
  return { kind: 'webhook' };
}

function stepInput(step: StepDraft): StepShape {
  if (step.kind === 'wait') {
    const size = WAIT_UNITS.find(([unit]) => unit === step.unit)?.[1] ?? 1;
    return { kind: 'wait', seconds: Math.round(Number(step.amount) * size) };
  }
  if (step.kind === 'send_email') return { kind: 'send_email', template: step.template };
  return { kind: 'http_request', url: step.url.trim() };
}

export function draftInput(draft: AutomationDraft) {
  return { name: draft.name.trim(), trigger: triggerInput(draft.trigger), steps: draft.steps.map(stepInput) };
}

/** A segment trigger in words, the segment by its name when `segmentNames` has it (else its id). */
function segmentTriggerInWords(trigger: TriggerShape, segmentNames: ReadonlyMap<string, string>): string {
  const verb = trigger.kind === 'segment_entered' ? 'enters' : 'leaves';
  if (!trigger.segment) return `When a person ${verb} any segment`;
  return `When a person ${verb} segment ${segmentNames.get(trigger.segment) ?? trigger.segment}`;
}

export function triggerInWords(trigger: TriggerShape, segmentNames: ReadonlyMap<string, string> = new Map()): string {
  if (trigger.kind === 'event') return `When event ${trigger.event ?? '?'} is recorded`;
  if (trigger.kind === 'stage_entered')
    return trigger.stage ? `When a person enters stage ${stageName(trigger.stage)}` : 'When a person enters any stage';
  if (trigger.kind === 'subscribed')
    return trigger.list ? `When someone subscribes to list ${trigger.list}` : 'When someone subscribes to any list';
  if (trigger.kind === 'unsubscribed')
    return trigger.list ? `When someone comes off list ${trigger.list}` : 'When someone comes off any list';
  if (trigger.kind === 'segment_entered' || trigger.kind === 'segment_left')
    return segmentTriggerInWords(trigger, segmentNames);
  if (trigger.kind === 'person_erased') return 'When a person is erased';
  if (trigger.kind === 'webhook') return 'When its start address is posted to';
  return trigger.kind;
}

function waitInWords(seconds: number): string {
  const { amount, unit } = waitIn(seconds);
  return `${amount} ${amount === '1' ? unit.slice(0, -1) : unit}`;
}

export function stepInWords(step: StepShape): string {
  if (step.kind === 'wait') return `Wait ${waitInWords(step.seconds ?? 0)}`;
  if (step.kind === 'send_email') return `Send the email template ${step.template ?? '?'}`;
  if (step.kind === 'http_request') return `Post to ${step.url ?? '?'}`;
  return step.kind;
}

export const STEP_KIND_NAMES: Record<StepKind, string> = {
  wait: 'Wait',
  send_email: 'Send an email',
  http_request: 'HTTP request',
};
