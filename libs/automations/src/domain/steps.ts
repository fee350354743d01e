// docs/graphql.md#automations: steps http_request (url), send_email (template name or id) and wait
// (seconds, 1 second to 30 days), run in order. The url's address rule and the template's existence
// are checked by the service when saved (they need the configuration and the workspace).
import { Refusal } from '@app/platform';

export const STEP_KINDS = ['http_request', 'send_email', 'wait'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export type AutomationStep =
  { kind: 'http_request'; url: string } | { kind: 'send_email'; template: string } | { kind: 'wait'; seconds: number };

export const WAIT_SECONDS = { min: 1, max: 30 * 24 * 3600 } as const;
/** Most steps in one automation: enough for a sequence, few enough to read as one page. */
export const MAX_STEPS = 20;

export interface RawStep {
  kind?: unknown;
  url?: unknown;
  template?: unknown;
  seconds?: unknown;
}

const OWN_FIELD: Record<StepKind, keyof RawStep> = { http_request: 'url', send_email: 'template', wait: 'seconds' };

const invalid = (field: string, message: string) => new Refusal('invalid_field', message, { field });

/** Each step's shape, in order; the first bad one is refused naming its place (steps[2].seconds). */
export function parseSteps(raw: readonly RawStep[]): AutomationStep[] | Refusal {
  if (raw.length > MAX_STEPS) return invalid('steps', `An automation has at most ${MAX_STEPS} steps: split it in two.`);
  const steps: AutomationStep[] = [];
  for (const [index, step] of raw.entries()) {
    const parsed = parseStep(step, `steps[${index}]`);
    if (parsed instanceof Refusal) return parsed;
    steps.push(parsed);
  }
  return steps;
}

function parseStep(raw: RawStep, at: string): AutomationStep | Refusal {
  const kind = raw.kind;
  if (typeof kind !== 'string' || !(STEP_KINDS as readonly string[]).includes(kind)) {
    return invalid(`${at}.kind`, `Set ${at}.kind to one of ${STEP_KINDS.join(', ')}.`);
  }
  const own = OWN_FIELD[kind as StepKind];
  for (const field of ['url', 'template', 'seconds'] as const) {
    if (raw[field] != null && field !== own)
      return invalid(`${at}.${field}`, `A ${kind} step takes no ${field}: remove ${at}.${field}.`);
  }
  switch (kind as StepKind) {
    case 'http_request': {
      const url = typeof raw.url === 'string' ? raw.url.trim() : '';
      if (!url) return invalid(`${at}.url`, `Set ${at}.url to the https:// address to post to.`);
      return { kind: 'http_request', url };
    }
    case 'send_email': {
      const template = typeof raw.template === 'string' ? raw.template.trim() : '';
      if (!template) return invalid(`${at}.template`, `Set ${at}.template to a template's name or id.`);
      return { kind: 'send_email', template };
    }
    case 'wait': {
      const seconds = raw.seconds;
      if (
        typeof seconds !== 'number' ||
        !Number.isInteger(seconds) ||
        seconds < WAIT_SECONDS.min ||
        seconds > WAIT_SECONDS.max
      ) {
        return invalid(
          `${at}.seconds`,
          `Set ${at}.seconds to a whole number from ${WAIT_SECONDS.min} to ${WAIT_SECONDS.max} (30 days).`,
        );
      }
      return { kind: 'wait', seconds };
    }
  }
}
