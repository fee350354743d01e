// docs/graphql.md#funnels-and-retention: what a retention question asks and how its answer is shaped.
// Periods are chart buckets (UTC, weeks from Monday). Pure: no I/O.
import { bucketEnd, bucketStart, bucketStarts, chartEvent, ChartInterval, oneOf } from './chart-rule';
import { AskedEvent, questionSegment, wholeNumber } from './funnel-rule';

export const RETENTION_INTERVALS = ['day', 'week', 'month'] as const satisfies readonly ChartInterval[];
export type RetentionInterval = (typeof RETENTION_INTERVALS)[number];
export const DEFAULT_RETENTION_INTERVAL: RetentionInterval = 'week';
export const DEFAULT_RETENTION_PERIODS = 8;
export const MAX_RETENTION_PERIODS = 52;

export interface RetentionInput {
  start: string;
  back: string;
  interval?: string | null;
  periods?: number | null;
  segment?: string | null;
}

export interface RetentionQuestion {
  start: AskedEvent;
  back: AskedEvent;
  interval: RetentionInterval;
  /** The start of every period, oldest first; the last holds now. */
  periods: Date[];
  /** The end (exclusive) of the last period. */
  end: Date;
  segment?: string;
}

export interface RetentionCohort {
  start: Date;
  people: number;
  shares: number[];
}

/** The start of the period `count - 1` periods before the one holding now. */
function firstPeriod(now: Date, interval: RetentionInterval, count: number): Date {
  const last = bucketStart(now, interval);
  const [y, m, d] = [last.getUTCFullYear(), last.getUTCMonth(), last.getUTCDate()];
  if (interval === 'month') return new Date(Date.UTC(y, m - (count - 1), 1));
  return new Date(Date.UTC(y, m, d - (count - 1) * (interval === 'week' ? 7 : 1)));
}

/** Checks a retention question's input, its periods the last ones up to now. */
export function parseRetentionInput(input: RetentionInput, now: Date): RetentionQuestion {
  const start = { ...chartEvent(input.start, 'start'), field: 'start' };
  const back = { ...chartEvent(input.back, 'back'), field: 'back' };
  const interval =
    input.interval === null || input.interval === undefined
      ? DEFAULT_RETENTION_INTERVAL
      : oneOf('interval', input.interval, RETENTION_INTERVALS);
  const count =
    input.periods === null || input.periods === undefined
      ? DEFAULT_RETENTION_PERIODS
      : wholeNumber('periods', input.periods, 1, MAX_RETENTION_PERIODS);
  const periods = bucketStarts(firstPeriod(now, interval, count), now, interval);
  return {
    start,
    back,
    interval,
    periods,
    end: bucketEnd(periods[periods.length - 1], interval),
    segment: questionSegment(input.segment),
  };
}

/**
 * One cohort per period, oldest first: its people, and for each period from its own to the one holding now
 * the share of them who did back in it (the first 1 by definition; all 0 for a cohort of nobody).
 */
export function retentionCohorts(
  question: RetentionQuestion,
  cohorts: Array<{ cohort: Date; people: number }>,
  returns: Array<{ cohort: Date; at: Date; people: number }>,
): RetentionCohort[] {
  const index = new Map(question.periods.map((at, i) => [at.getTime(), i]));
  const sizes = question.periods.map(() => 0);
  const back = question.periods.map((_, c) => question.periods.slice(c).map(() => 0));
  for (const row of cohorts) {
    const c = index.get(new Date(row.cohort).getTime());
    if (c !== undefined) sizes[c] = Number(row.people);
  }
  for (const row of returns) {
    const c = index.get(new Date(row.cohort).getTime());
    const p = index.get(new Date(row.at).getTime());
    if (c !== undefined && p !== undefined && p > c) back[c][p - c] = Number(row.people);
  }
  return question.periods.map((start, c) => ({
    start,
    people: sizes[c],
    shares: back[c].map((n, i) => (sizes[c] === 0 ? 0 : i === 0 ? 1 : n / sizes[c])),
  }));
}
