// The questions of a funnel and of retention (docs/graphql.md#funnels-and-retention), as the URL keeps them:
// a funnel's steps (comma-separated: event names have no commas), the days later steps may take, its range
// and segment; retention's start and back events, interval, periods and segment.
import { questionOf } from './question';

export const MAX_STEPS = 10;
export const RETENTION_INTERVALS: [string, string][] = [
  ['day', 'Day'],
  ['week', 'Week (from Monday)'],
  ['month', 'Month'],
];

export interface FunnelQuestion {
  steps: string[];
  withinDays: string;
  range: string;
  from: string;
  to: string;
  segment: string;
}

export interface RetentionQuestion {
  start: string;
  back: string;
  interval: string;
  periods: string;
  segment: string;
}

export function funnelOf(params: URLSearchParams): FunnelQuestion {
  const { range, from, to } = questionOf(params);
  const steps = (params.get('steps') ?? '').split(',').slice(0, MAX_STEPS);
  while (steps.length < 2) steps.push('');
  return { steps, withinDays: params.get('within') ?? '', range, from, to, segment: params.get('segment') ?? '' };
}

const DAY_MS = 86_400_000;
const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00.000Z`) + DAY_MS).toISOString();
const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : null);

/** funnel(input): step 1 from the start of from to the end of to (the API's to is exclusive), UTC. */
export function funnelInput(question: FunnelQuestion) {
  return {
    steps: question.steps,
    withinDays: whole(question.withinDays),
    from: `${question.from}T00:00:00.000Z`,
    to: dayAfter(question.to),
    segment: question.segment || null,
  };
}

export function retentionOf(params: URLSearchParams): RetentionQuestion {
  const interval = params.get('interval') ?? '';
  return {
    start: params.get('start') ?? '',
    back: params.get('back') ?? '',
    interval: RETENTION_INTERVALS.some(([v]) => v === interval) ? interval : 'week',
    periods: params.get('periods') ?? '8',
    segment: params.get('segment') ?? '',
  };
}

export function retentionInput(question: RetentionQuestion) {
  return {
    start: question.start,
    back: question.back,
    interval: question.interval,
    periods: whole(question.periods),
    segment: question.segment || null,
  };
}

const PERCENT = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 });

/** A share (0 to 1) as a percentage, like 42.5%. */
export function percent(share: number): string {
  return PERCENT.format(share);
}
