// docs/graphql.md#funnels-and-retention: what a funnel asks and how its answer is shaped. Pure: no I/O.
import { Refusal } from '@app/platform/plain';
import { chartEvent, instant } from './chart-rule';

const DAY = 24 * 3_600_000;

export const MIN_FUNNEL_STEPS = 2;
export const MAX_FUNNEL_STEPS = 10;
export const MAX_WITHIN_DAYS = 366;

export interface FunnelInput {
  steps: unknown;
  withinDays?: number | null;
  from: Date | string;
  to: Date | string;
  segment?: string | null;
}

/** A name a question asks of, and the input field that named it. */
export interface AskedEvent {
  event: string;
  builtIn: boolean;
  field: string;
}

export interface FunnelQuestion {
  steps: AskedEvent[];
  /** Later steps at most this many days (of 24 hours) after the person's step 1. */
  withinDays?: number;
  /** Step 1 at or after from and before to. */
  from: Date;
  to: Date;
  segment?: string;
}

export interface FunnelStep {
  event: string;
  people: number;
  conversion: number;
}

/** The segment a question keeps its people to: absent, or an id (whether the workspace has it is asked afterwards). */
export function questionSegment(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  throw new Refusal('invalid_field', 'segment must be the id of one of this workspace’s segments, or left out.', {
    field: 'segment',
  });
}

/** A whole number in min..max, else the refusal naming field. */
export function wholeNumber(field: string, value: unknown, min: number, max: number): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  throw new Refusal('invalid_field', `${field} must be a whole number from ${min} to ${max}.`, { field });
}

/** Checks a funnel's input; whether custom names were seen is asked of the database afterwards. */
export function parseFunnelInput(input: FunnelInput): FunnelQuestion {
  const raw = input.steps;
  if (!Array.isArray(raw) || raw.length < MIN_FUNNEL_STEPS || raw.length > MAX_FUNNEL_STEPS) {
    throw new Refusal(
      'invalid_field',
      `steps must name ${MIN_FUNNEL_STEPS} to ${MAX_FUNNEL_STEPS} events, in the order people do them.`,
      { field: 'steps' },
    );
  }
  const steps = raw.map((name, i) => ({ ...chartEvent(name, `steps[${i}]`), field: `steps[${i}]` }));
  const withinDays =
    input.withinDays === null || input.withinDays === undefined
      ? undefined
      : wholeNumber('withinDays', input.withinDays, 1, MAX_WITHIN_DAYS);
  const from = instant('from', input.from);
  const to = instant('to', input.to);
  if (from >= to) throw new Refusal('invalid_field', 'to must be after from.', { field: 'to' });
  return { steps, withinDays, from, to, segment: questionSegment(input.segment) };
}

/** The latest a later step may happen: to plus withinDays, or no bound. */
export function funnelEnd(question: FunnelQuestion): Date | undefined {
  return question.withinDays === undefined ? undefined : new Date(question.to.getTime() + question.withinDays * DAY);
}

/** Each step's people and their share of step 1's (1 for step 1; 0 for every step when step 1 has nobody). */
export function funnelSteps(question: FunnelQuestion, people: number[]): FunnelStep[] {
  const first = people[0] ?? 0;
  return question.steps.map((step, i) => ({
    event: step.event,
    people: people[i] ?? 0,
    conversion: first === 0 ? 0 : (people[i] ?? 0) / first,
  }));
}
