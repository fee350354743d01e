// docs/graphql.md#activity-and-charts: what a chart asks and how its answer is shaped. Pure: no I/O.
import { Refusal } from '@app/platform/plain';
import { BUILT_IN_EVENTS, CUSTOM_NAME_PATTERN, RESERVED_EVENT_NAMES } from '../domain/catalogue';

export const CHART_MEASURES = ['count', 'sum_value', 'people'] as const;
export const CHART_INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export const CHART_BREAKDOWNS = ['source', 'medium', 'campaign'] as const;
export type ChartMeasure = (typeof CHART_MEASURES)[number];
export type ChartInterval = (typeof CHART_INTERVALS)[number];
export type ChartBreakdown = (typeof CHART_BREAKDOWNS)[number];

export const MAX_BUCKETS = 1_000;
/** The series key of people whose first touch has no such field. */
export const NO_VALUE_KEY = '(none)';

export interface ChartInput {
  event: string;
  measure: string;
  interval: string;
  from: Date | string;
  to: Date | string;
  breakdown?: string | null;
}

export interface ChartQuestion {
  event: string;
  builtIn: boolean;
  measure: ChartMeasure;
  interval: ChartInterval;
  /** Both ends inclusive. */
  from: Date;
  to: Date;
  breakdown?: ChartBreakdown;
  /** Start of every bucket from the one holding from to the one holding to, UTC. */
  buckets: Date[];
}

export interface ChartPoint {
  at: Date;
  value: number;
}
export interface ChartSeries {
  key: string;
  points: ChartPoint[];
}

const BUILT_IN: ReadonlySet<string> = new Set(BUILT_IN_EVENTS);
const RESERVED: ReadonlySet<string> = new Set(RESERVED_EVENT_NAMES);

export function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new Refusal('invalid_field', `${field} must be one of ${allowed.join(', ')}.`, { field });
}

export function instant(field: string, value: Date | string): Date {
  const at = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(at.getTime()))
    throw new Refusal('invalid_field', `${field} must be an ISO 8601 date-time.`, { field });
  return at;
}

/**
 * An event name a question may ask of: built in, or a custom name (whether the workspace has seen it is asked of
 * the database afterwards).
 */
export function chartEvent(value: unknown, field = 'event'): { event: string; builtIn: boolean } {
  const event = typeof value === 'string' ? value.trim() : '';
  const builtIn = BUILT_IN.has(event);
  if (!builtIn && (RESERVED.has(event) || !CUSTOM_NAME_PATTERN.test(event))) {
    throw new Refusal(
      'unknown_event',
      `"${event}" is not an event name this workspace has: use a built-in name or a custom name it has seen ` +
        `(see eventNames).`,
      { field },
    );
  }
  return { event, builtIn };
}

/** The start (UTC) of the bucket holding `at`; weeks start on Monday. */
export function bucketStart(at: Date, interval: ChartInterval): Date {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  const d = at.getUTCDate();
  if (interval === 'hour') return new Date(Date.UTC(y, m, d, at.getUTCHours()));
  if (interval === 'day') return new Date(Date.UTC(y, m, d));
  if (interval === 'month') return new Date(Date.UTC(y, m, 1));
  return new Date(Date.UTC(y, m, d - ((at.getUTCDay() + 6) % 7)));
}

/** The start of the bucket after the one starting at `start` (its exclusive end). */
export function bucketEnd(start: Date, interval: ChartInterval): Date {
  const y = start.getUTCFullYear();
  const m = start.getUTCMonth();
  const d = start.getUTCDate();
  if (interval === 'hour') return new Date(start.getTime() + 3_600_000);
  if (interval === 'day') return new Date(Date.UTC(y, m, d + 1));
  if (interval === 'week') return new Date(Date.UTC(y, m, d + 7));
  return new Date(Date.UTC(y, m + 1, 1));
}

/** Every bucket start from the one holding from to the one holding to; refused past MAX_BUCKETS. */
export function bucketStarts(from: Date, to: Date, interval: ChartInterval): Date[] {
  const buckets: Date[] = [];
  for (let at = bucketStart(from, interval); at <= to; at = bucketEnd(at, interval)) {
    if (buckets.length === MAX_BUCKETS) {
      throw new Refusal(
        'invalid_field',
        `A chart has at most ${MAX_BUCKETS} buckets: shorten from..to or use a longer interval.`,
      );
    }
    buckets.push(at);
  }
  return buckets;
}

/** The refusal of a custom name the workspace has not seen yet. */
export function unseenEvent(event: string, field = 'event'): Refusal {
  return new Refusal(
    'unknown_event',
    `This workspace has not seen "${event}" yet: a custom name can be charted once an event of that name arrived.`,
    { field },
  );
}

/** Checks a chart's input; whether a custom name was seen is asked of the database afterwards. */
export function parseChartInput(input: ChartInput): ChartQuestion {
  const { event, builtIn } = chartEvent(input.event);
  const measure = oneOf('measure', input.measure, CHART_MEASURES);
  const interval = oneOf('interval', input.interval, CHART_INTERVALS);
  const breakdown =
    input.breakdown === null || input.breakdown === undefined
      ? undefined
      : oneOf('breakdown', input.breakdown, CHART_BREAKDOWNS);
  const from = instant('from', input.from);
  const to = instant('to', input.to);
  if (from > to) throw new Refusal('invalid_field', 'from must not be after to.');
  return { event, builtIn, measure, interval, from, to, breakdown, buckets: bucketStarts(from, to, interval) };
}

/**
 * The answer: one series per key (key all without breakdown), every bucket present, empty ones 0;
 * series with the largest total first.
 */
export function chartSeries(
  question: ChartQuestion,
  rows: Array<{ bucket: Date; key: string | null; value: number }>,
): ChartSeries[] {
  const byKey = new Map<string, Map<number, number>>();
  if (!question.breakdown) byKey.set('all', new Map());
  for (const row of rows) {
    const key = question.breakdown ? row.key || NO_VALUE_KEY : 'all';
    const values = byKey.get(key) ?? new Map<number, number>();
    const at = new Date(row.bucket).getTime();
    values.set(at, (values.get(at) ?? 0) + Number(row.value));
    byKey.set(key, values);
  }
  const series = [...byKey].map(([key, values]) => ({
    key,
    total: [...values.values()].reduce((a, b) => a + b, 0),
    points: question.buckets.map((at) => ({ at, value: values.get(at.getTime()) ?? 0 })),
  }));
  series.sort((a, b) => b.total - a.total || a.key.localeCompare(b.key));
  return series.map(({ key, points }) => ({ key, points }));
}
